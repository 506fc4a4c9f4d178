import type { TrusteeReportNoticeJob } from '@lv/contracts';
import { renderTrusteeReportNotice, trusteeReportNoticeMessageId, type ReportWords } from './trustee-report-notice-message.js';

const reportId = 'c0000000-0000-4000-8000-000000000001';
const job = (kind: TrusteeReportNoticeJob['kind'], suffix: string = kind): TrusteeReportNoticeJob => ({ noticeId: `${reportId}-${suffix}`, reportId, ownerId: 'o1', kind });
const report: ReportWords = {
  kind: 'incapacitated', note: 'Taken to <St Mary> on Monday', reportedAt: '2026-12-06T10:00:00.000Z', vetoEndsAt: '2026-12-09T10:00:00.000Z',
  trusteeName: 'Ann Lee', trusteeEmail: 'ann@example.com', closedAt: null,
};
const parties = { ownerEmail: 'sam@example.com', ownerName: 'Sam Taylor' };

describe('trustee report e-mails', () => {
  it('tells the owner at once who reported what and when, when the release would happen, and where to say "I\'m still here"', () => {
    const message = renderTrusteeReportNotice(job('reported'), report, parties, 'https://vault.example');
    expect(message).toMatchObject({ to: 'sam@example.com', messageId: trusteeReportNoticeMessageId(`${reportId}-reported`), subject: 'Legacy Vault: Ann Lee reported that you are incapacitated (e.g. in hospital)' });
    expect(message.text).toContain('Ann Lee, one of your trustees, reported on 6 December 2026 at 10:00 UTC that you are incapacitated (e.g. in hospital).');
    expect(message.text).toContain('Their note: Taken to <St Mary> on Monday');
    expect(message.text).toContain('no earlier than 9 December 2026 at 10:00 UTC');
    expect(message.text).toContain('https://vault.example/if-im-not-there');
    expect(message.html).toContain('Their note: Taken to &lt;St Mary&gt; on Monday');
    expect(message.html).toContain('<a href="https://vault.example/if-im-not-there">I\'m still here</a>');
  });

  it('a reminder names the delivery date in its subject and has its own Message-ID', () => {
    const message = renderTrusteeReportNotice(job('reminder', 'reminder-2'), report, parties, 'https://vault.example');
    expect(message.subject).toBe('Reminder: your Legacy Vault will be delivered on 9 December 2026 unless you answer');
    expect(message.messageId).toBe(`<trustee-report-${reportId}-reminder-2@legacy-vault>`);
    expect(message.to).toBe('sam@example.com');
  });

  it("tells the reporter the report was withdrawn, and nothing else of the owner's account", () => {
    const message = renderTrusteeReportNotice(job('withdrawn'), { ...report, closedAt: '2026-12-07T08:00:00.000Z' }, parties, 'https://vault.example');
    expect(message).toMatchObject({ to: 'ann@example.com', subject: 'Your report about Sam Taylor has been withdrawn' });
    expect(message.text).toContain('Dear Ann Lee,');
    expect(message.text).toContain('On 6 December 2026 you reported that Sam Taylor is incapacitated (e.g. in hospital).');
    expect(message.text).toContain('nothing will be released');
    for (const secret of ['sam@example.com', 'St Mary', '9 December', 'if-im-not-there', 'signed in', '8:00']) expect(message.text + message.html).not.toContain(secret);
  });
});
