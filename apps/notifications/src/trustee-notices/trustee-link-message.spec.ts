import type { TrusteeLinkJob } from '@lv/contracts';
import { renderTrusteeLink, trusteeLinkMessageId } from './trustee-link-message.js';

const job: TrusteeLinkJob = {
  linkId: 'b0000000-0000-4000-8000-000000000001', ownerId: 'o1', trusteeId: 't1', kind: 'invitation' as const, trusteeEmail: 'ann@example.com', trusteeName: 'Ann <Lee>',
  ownerName: 'Sam Taylor', expiresAt: '2026-12-20T10:00:00.000Z', sealedLink: { alg: 'A256GCM', iv: '', tag: '', ct: '' },
};
const link = '/trustee?t=t1&n=secret&u=o1&exp=1&sig=s';

describe('trustee link e-mails', () => {
  it('an invitation names the owner, says the role opens nothing of the vault, and carries the link until its expiry', () => {
    const message = renderTrusteeLink(job, link, 'https://vault.example');
    expect(message).toMatchObject({ to: 'ann@example.com', messageId: trusteeLinkMessageId(job.linkId), subject: 'Sam Taylor has named you a trustee of their Legacy Vault' });
    expect(message.text).toContain('Being a trustee gives you no access to the vault.');
    expect(message.text).toContain('https://vault.example/trustee?t=t1&n=secret&u=o1&exp=1&sig=s');
    expect(message.text).toContain('until 20 December 2026');
    expect(message.html).toContain('Dear Ann &lt;Lee&gt;,');
    expect(message.html).toContain('href="https://vault.example/trustee?t=t1&amp;n=secret&amp;u=o1&amp;exp=1&amp;sig=s"');
  });

  it('a link asked for again says so, with the same Message-ID for every attempt', () => {
    const message = renderTrusteeLink({ ...job, kind: 'link' }, link, 'https://vault.example');
    expect(message.subject).toBe("Your trustee link for Sam Taylor's Legacy Vault");
    expect(message.messageId).toBe('<trustee-link-b0000000-0000-4000-8000-000000000001@legacy-vault>');
  });
});
