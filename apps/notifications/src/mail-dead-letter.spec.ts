import { jest } from '@jest/globals';
import type { AccessRequestNoticeJob } from '@lv/contracts';
import { RequestNotCommittedYet } from './access-request-notices/access-request-notices.service.js';
import { mailDeadLetter, type NeverCommittedRule } from './mail-dead-letter.js';

describe('mailDeadLetter: a mail job out of attempts', () => {
  const job: AccessRequestNoticeJob = { requestId: '6f1c2b9e-5d4a-5b3c-8e2f-1a2b3c4d5e6f', ownerId: '0b8f3c1e-2d4a-4b6c-8e0f-1a2b3c4d5e6f' };
  const setup = (neverCommitted: NeverCommittedRule) => {
    const recordFailed = jest.fn((_job: AccessRequestNoticeJob, _attempts: number, _reason: string) => Promise.resolve());
    const logger = { error: jest.fn(), warn: jest.fn() };
    const handle = mailDeadLetter({ what: 'access request notice', logger, neverCommitted, recordFailed, idOf: (j) => ({ requestId: j.requestId }) });
    return { recordFailed, logger, handle };
  };

  it('records nothing for a request that never committed (leave-open), and logs it with the request id', async () => {
    const { recordFailed, logger, handle } = setup('leave-open');
    await handle({ id: `request-notice-${job.requestId}-a`, attemptsMade: 5 }, new RequestNotCommittedYet(job.requestId), job);
    expect(recordFailed).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ requestId: job.requestId, attempts: 5 }), expect.stringMatching(/never committed; nothing recorded/));
  });

  it('still records a real failure (SMTP kept failing) as now', async () => {
    const { recordFailed, logger, handle } = setup('leave-open');
    await handle({ id: 'j', attemptsMade: 5 }, new Error('connect ECONNREFUSED 127.0.0.1:1025'), job);
    expect(recordFailed).toHaveBeenCalledWith(job, 5, 'connect ECONNREFUSED 127.0.0.1:1025');
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ requestId: job.requestId }), 'access request notice failed for good');
  });

  it('records a never-committed entity where its id is fresh on each attempt (record)', async () => {
    const { recordFailed, handle } = setup('record');
    await handle({ id: 'j', attemptsMade: 5 }, new RequestNotCommittedYet(job.requestId), job);
    expect(recordFailed).toHaveBeenCalledWith(job, 5, `access request ${job.requestId} is not committed yet`);
  });

  it('records nothing for data that did not pass its schema, and logs a failed record instead of throwing', async () => {
    const { recordFailed, logger, handle } = setup('leave-open');
    await handle({ id: 'j', attemptsMade: 1 }, new Error('bad data'), null);
    expect(recordFailed).not.toHaveBeenCalled();
    recordFailed.mockRejectedValueOnce(new Error('db down'));
    await handle({ id: 'j', attemptsMade: 5 }, new Error('smtp'), job);
    expect(logger.error).toHaveBeenLastCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'could not record a failed access request notice');
  });
});
