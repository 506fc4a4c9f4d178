import type { AccountEmailJob } from '@lv/contracts';
import { AccountEmailSubjects, renderAccountEmail } from './account-email-message.js';

// An e-mail change's two messages: the new address gets its confirm link, the old one its undo link.

const job = (kind: AccountEmailJob['kind']): AccountEmailJob => ({
  emailId: '1b2c3d4e-0000-4000-8000-000000000001', userId: '1b2c3d4e-0000-4000-8000-000000000002', kind, to: 'dad@example.com',
  at: '2026-12-06T10:00:00.000Z', expiresAt: '2026-12-13T10:00:00.000Z',
});

describe('account e-mails of an e-mail change', () => {
  it('asks the new address to confirm, with the link and until when it works', () => {
    const message = renderAccountEmail(job('email-change-confirm'), '/confirm-email#token=abc', 'https://vault.example');
    expect(message.subject).toBe(AccountEmailSubjects['email-change-confirm']);
    expect(message.text).toContain('https://vault.example/confirm-email#token=abc');
    expect(message.text).toContain('13 December 2026');
    expect(message.html).toContain('Confirm this address');
  });

  it('tells the old address at once, with its "this wasn\'t me" link', () => {
    const message = renderAccountEmail(job('email-change-notice'), '/undo-email-change#token=abc', 'https://vault.example');
    expect(message.subject).toBe(AccountEmailSubjects['email-change-notice']);
    expect(message.text).toContain('https://vault.example/undo-email-change#token=abc');
    expect(message.text).toContain('choose a new password');
    expect(message.html).toContain('This wasn’t me');
  });

  it('tells the owner when his account will be deleted, with the "keep my account" link and the way in Settings', () => {
    const message = renderAccountEmail(job('account-deletion-scheduled'), '/keep-account#token=abc', 'https://vault.example');
    expect(message.subject).toBe('Legacy Vault: your account will be deleted');
    expect(message.text).toContain('It will be deleted on 13 December 2026');
    expect(message.text).toContain('https://vault.example/keep-account#token=abc');
    expect(message.text).toContain('"Keep my account" in Settings');
    expect(message.html).toContain('>Keep my account</a>');
  });

  it('tells the owner of a sign-in from a new browser, naming it, with a "this wasn\'t me" link', () => {
    const message = renderAccountEmail({ ...job('new-sign-in'), device: 'Firefox on Windows' }, '/not-me#token=abc', 'https://vault.example');
    expect(message.subject).toBe(AccountEmailSubjects['new-sign-in']);
    expect(message.text).toContain('from a browser it had not seen before: Firefox on Windows.');
    expect(message.text).toContain('https://vault.example/not-me#token=abc');
    expect(message.text).toContain('until 13 December 2026');
    expect(message.html).toContain('href="https://vault.example/not-me#token=abc"');
    expect(message.html).toContain('This wasn’t me: sign everyone out');
  });

  it('asks a new account to verify its address, with the link, until when it works, and what waits on it', () => {
    const message = renderAccountEmail(job('verify-email'), '/verify-email#token=abc', 'https://vault.example');
    expect(message.subject).toBe(AccountEmailSubjects['verify-email']);
    expect(message.text).toContain('https://vault.example/verify-email#token=abc');
    expect(message.text).toContain('until 13 December 2026');
    expect(message.text).toContain('sends no e-mail on the account\'s behalf');
    expect(message.html).toContain('href="https://vault.example/verify-email#token=abc"');
    expect(message.html).toContain('Verify this address');
  });
});
