import type { SendKeyEmailJob } from '@lv/contracts';
import { keyEmailMessageId, renderKeyEmail } from './key-email-message.js';

const job: SendKeyEmailJob = {
  keyId: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
  ownerId: '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11',
  recipientEmail: 'ellie@example.com',
  recipientName: 'Ellie <script>',
  sharedBy: 'dad@example.com',
  sealedKey: { alg: 'A256GCM', iv: '', tag: '', ct: '' },
  expiresAt: '2026-12-25T10:00:00.000Z',
  scopes: ['letters', 'timeline'],
};
const key = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';

describe('key e-mail', () => {
  const message = renderKeyEmail(job, key, 'https://vault.example.com/');

  it('carries the key, a link that opens the access page with it, the expiry and the sections', () => {
    expect(message.to).toBe('ellie@example.com');
    expect(message.text).toContain(key);
    expect(message.text).toContain(`https://vault.example.com/access#k=${key}&owner=${job.ownerId}`);
    expect(message.text).toContain('25 December 2026');
    expect(message.text).toContain('It opens: Letters, Timeline.');
    expect(message.subject).toBe('dad@example.com shared their Legacy Vault with you');
  });

  it('says a milestone key opens one letter, written for the recipient, and not the vault', () => {
    const letter = renderKeyEmail({ ...job, scopes: ['letters'], oneLetter: true }, key, 'https://vault.example.com/');
    expect(letter.subject).toBe('dad@example.com left a letter for you');
    expect(letter.text).toContain('dad@example.com wrote you a letter and asked us to give it to you today.');
    expect(letter.text).toContain('It opens: one letter, written for you.');
    expect(letter.text).not.toContain('shared their Legacy Vault');
    expect(letter.html).toContain('Open your letter');
  });

  it('keeps what people typed out of the mail: the greeting names nobody (issue 29: no relay for an owner’s words)', () => {
    const relay = renderKeyEmail({ ...job, recipientName: 'Your bank: call +1-555-0100' }, key, 'https://vault.example.com/');
    expect(relay.text.split('\n')[0]).toBe('Hello,');
    for (const part of [relay.text, relay.html, relay.subject]) expect(part).not.toContain('555-0100');
    expect(message.html).not.toContain('<script>');
  });

  it('has one Message-ID per key, whatever the attempt', () => {
    expect(message.messageId).toBe(keyEmailMessageId(job.keyId));
    expect(renderKeyEmail(job, key, 'http://127.0.0.1:3000').messageId).toBe(message.messageId);
  });
});

describe('key e-mail links (issue 29)', () => {
  it('carry the key in the fragment, never the query, so opening one sends the key to no server', () => {
    const message = renderKeyEmail(job, key, 'https://vault.example.com/');
    const href = /href="([^"]+)"/.exec(message.html)![1]!.replaceAll('&amp;', '&');
    const url = new URL(href);
    expect(url.search).toBe('');
    expect(new URLSearchParams(url.hash.slice(1)).get('k')).toBe(key);
    expect(message.text).not.toContain(`?k=${key}`);
  });
});
