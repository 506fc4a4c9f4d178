// The BullMQ dashboard. Imported by main.ts only: Jest cannot load @bull-board/* (ESM cycles), so
// nothing that tests import may reach this file.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import type { AccessTokenVerifier } from '@lv/platform/auth';
import type { Logger } from '@lv/platform/logging';
import { ALL_QUEUE_DECLARATIONS, ALL_QUEUES } from '@lv/contracts';
import { createQueue, createRedisConnection } from '@lv/platform/queues';
import { mountAdminOnly, QUEUE_DASHBOARD_PATH } from './admin-access.js';

/** Mounts bull-board at /api/admin/queues behind the admin gate; its queue connections close with the server. */
export async function mountQueueDashboard(app: FastifyInstance, options: { verifier: AccessTokenVerifier; redisUrl: string; logger: Logger }): Promise<void> {
  // Every queue of the platform's registry, under this stack's key prefix (STACK_ID), on one
  // producer connection: the board reads and retries jobs, it never works them.
  const connection = createRedisConnection(options.redisUrl, { role: 'producer', name: 'gateway-queue-board' });
  connection.on('error', (error: Error) => options.logger.warn({ err: error }, 'queue dashboard: Redis connection error'));
  const queues = ALL_QUEUE_DECLARATIONS.map((declared) => {
    const queue = createQueue<unknown>(declared, connection);
    // The connection's own listener reports the outage; without a listener BullMQ prints raw stacks.
    queue.on('error', (error: Error) => options.logger.debug({ err: error, queue: declared.name }, 'queue dashboard: queue error'));
    return queue;
  });
  const serverAdapter = new BullBoardFastifyAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: false })), serverAdapter, options: { uiConfig: { boardTitle: 'Legacy Vault queues' } } });
  await mountAdminOnly(app, options.verifier, serverAdapter.registerPlugin() as never, QUEUE_DASHBOARD_PATH);
  options.logger.info({ queues: [...ALL_QUEUES] }, `queue dashboard mounted at ${QUEUE_DASHBOARD_PATH} (admins only)`);
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((queue) => queue.close().catch(() => undefined)));
    connection.disconnect();
  });
}
