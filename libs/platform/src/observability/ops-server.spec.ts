import { answerOpsRequest, type ReadinessReport } from './ops-server.js';
import { rpcRequests } from './metrics.js';

describe('the ops listener', () => {
  const up: ReadinessReport = { status: 'up', checks: { postgres: { status: 'up' } } };
  const down: ReadinessReport = { status: 'down', checks: { redis: { status: 'down', detail: 'connect ECONNREFUSED' } } };
  let asked = 0;
  const readiness = (report: ReadinessReport) => async () => { asked++; return report; };
  beforeEach(() => { asked = 0; });

  it('answers liveness without asking any dependency: an outage must not restart every pod', async () => {
    expect(await answerOpsRequest('GET', '/health/live', readiness(down))).toMatchObject({ status: 200, body: '{"status":"up"}' });
    expect(asked).toBe(0);
  });

  it('answers readiness 200 when every check is up and 503 with the checks when one is down', async () => {
    expect(await answerOpsRequest('GET', '/health/ready', readiness(up))).toMatchObject({ status: 200 });
    const answer = await answerOpsRequest('GET', '/health/ready', readiness(down));
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual(down);
    // The worker's containers probed /health before: the same readiness.
    expect((await answerOpsRequest('GET', '/health', readiness(down))).status).toBe(503);
  });

  it('serves the metrics in the Prometheus text format', async () => {
    rpcRequests.inc({ subject: 'rpc.letters.list', outcome: 'ok' });
    const answer = await answerOpsRequest('GET', '/metrics', readiness(up));
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('text/plain');
    expect(answer.body).toMatch(/lv_rpc_requests_total\{subject="rpc\.letters\.list",outcome="ok"\} \d+/);
  });

  it('refuses other methods and paths', async () => {
    expect((await answerOpsRequest('POST', '/metrics', readiness(up))).status).toBe(405);
    expect((await answerOpsRequest('GET', '/', readiness(up))).status).toBe(404);
    expect((await answerOpsRequest('GET', '/api/health', readiness(up))).status).toBe(404);
  });
});
