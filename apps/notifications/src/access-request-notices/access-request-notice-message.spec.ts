import { plainLine, renderAccessRequestNotice } from './access-request-notice-message.js';

const notice = { requestId: '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', ownerEmail: 'sam@example.com', ownerName: 'Sam Taylor', requesterName: 'Ellie', relationship: 'Daughter' };

describe('the owner’s e-mail about an access request', () => {
  it('names who asked and links to /access-control, with a subject that names no one', () => {
    const mail = renderAccessRequestNotice(notice, 'https://vault.example.com/');
    expect(mail).toMatchObject({ to: 'sam@example.com', subject: 'Someone asked for access to your Legacy Vault', messageId: `<access-request-${notice.requestId}@legacy-vault>` });
    expect(mail.text.split('\n')).toEqual(expect.arrayContaining(['Dear Sam Taylor,', 'Name they gave: Ellie', 'Relationship: Daughter']));
    expect(mail.text).toContain('https://vault.example.com/access-control');
    expect(mail.html).toContain('href="https://vault.example.com/access-control"');
  });

  it('greets without a name, and says when the requester gave none', () => {
    const mail = renderAccessRequestNotice({ ...notice, ownerName: '  ', requesterName: null }, 'http://127.0.0.1:3000');
    expect(mail.text.startsWith('Hello,\n')).toBe(true);
    expect(mail.text).toContain('Name they gave: (none given)');
  });

  it('keeps their words one plain line: breaks and control characters flattened, long text cut, HTML escaped', () => {
    expect(plainLine('Ellie\r\nBcc: x@example.com\u0000\u2028end')).toBe('Ellie Bcc: x@example.com end');
    expect(plainLine('x'.repeat(500))).toHaveLength(120);
    const mail = renderAccessRequestNotice({ ...notice, requesterName: '<img src=x onerror=alert(1)>' }, 'http://127.0.0.1:3000');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
