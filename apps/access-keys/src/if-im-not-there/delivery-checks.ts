import type { DeliveryCheck, DeliverySettings, DeliveryTiming } from '@lv/contracts';
import type { Queue } from 'bullmq';
import { deliveryDecider, type DeliveryCommand, type DeliveryEvent, type DeliveryState } from './delivery-release.decider.js';

/** What the checks read: the caller's settings and contacts, and the two queues the pipeline needs. */
export interface DeliveryCheckInputs {
  settings: () => Promise<DeliverySettings>;
  contactCount: () => Promise<number>;
  deliveryQueue: Pick<Queue, 'getJobCounts' | 'getWorkers'>;
  keyEmailQueue: Pick<Queue, 'getWorkers'>;
  /** The inactivity trigger's queues: its wakes (this service) and its warning e-mails (notifications). */
  inactivityQueues: { timing: Pick<Queue, 'getWorkers'>; warnings: Pick<Queue, 'getWorkers'> };
  now: string;
}

/** Runs the decider over commands without storing anything: the events it would record. */
function dryRun(commands: DeliveryCommand[]): { events: DeliveryEvent[]; refused: number } {
  let state: DeliveryState = deliveryDecider.initialState();
  const events: DeliveryEvent[] = [];
  let refused = 0;
  for (const command of commands) {
    try {
      for (const event of deliveryDecider.decide(command, state)) {
        state = deliveryDecider.evolve(state, event);
        events.push(event);
      }
    } catch {
      refused++;
    }
  }
  return { events, refused };
}

async function check(name: string, run: () => { passed: boolean; detail: string } | Promise<{ passed: boolean; detail: string }>): Promise<DeliveryCheck> {
  try {
    return { name, ...(await run()) };
  } catch (error) {
    return { name, passed: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The /test-vault-delivery checks: real reads of the running pipeline (settings, contacts, the
 * delivery-timing queue and its worker, the key e-mail worker) and dry runs of the delivery rules on
 * the caller's own settings (never early, exactly once). Nothing is written.
 */
export async function runDeliveryChecks(inputs: DeliveryCheckInputs): Promise<DeliveryCheck[]> {
  let timing: DeliveryTiming = 'after_30_days';
  let requireLegalVerification = false;
  const owner = '00000000-0000-4000-8000-000000000000';
  const release = '00000000-0000-4000-8000-000000000001';
  const trigger = (now: string): DeliveryCommand => ({ type: 'TriggerDelivery', releaseId: release, ownerId: owner, trigger: 'trustee-report', timing, requireLegalVerification, now });
  const releaseAt = (now: string): DeliveryCommand => ({ type: 'ReleaseDelivery', ownerId: owner, releaseId: release, keyIds: [], now });
  const verify = (now: string): DeliveryCommand => ({ type: 'VerifyDelivery', ownerId: owner, now });
  const dueOf = (events: DeliveryEvent[]) => {
    const last = [...events].reverse().find((e) => e.type === 'DeliveryTriggered' || e.type === 'DeliveryVerified');
    return last?.data.dueAt ?? null;
  };

  return [
    await check('Delivery settings load', async () => {
      const settings = await inputs.settings();
      timing = settings.delivery_timing;
      requireLegalVerification = settings.require_legal_verification;
      return { passed: true, detail: `Timing: ${timing}${requireLegalVerification ? ', legal verification required' : ''}.` };
    }),
    await check('Emergency contacts ready', async () => {
      const count = await inputs.contactCount();
      return count > 0
        ? { passed: true, detail: `${count} contact${count === 1 ? '' : 's'} would receive a key.` }
        : { passed: false, detail: 'Add at least one emergency contact: nobody would receive your vault.' };
    }),
    await check('Delivery timing queue reachable', async () => {
      const counts = await inputs.deliveryQueue.getJobCounts('delayed', 'waiting', 'failed');
      return { passed: true, detail: `${counts.delayed ?? 0} scheduled, ${counts.waiting ?? 0} waiting, ${counts.failed ?? 0} failed.` };
    }),
    await check('Delivery worker running', async () => {
      const workers = (await inputs.deliveryQueue.getWorkers()).length;
      return { passed: workers > 0, detail: workers > 0 ? `${workers} worker${workers === 1 ? ' takes' : 's take'} due deliveries.` : 'No worker takes due deliveries.' };
    }),
    await check('Key e-mail worker running', async () => {
      const workers = (await inputs.keyEmailQueue.getWorkers()).length;
      return { passed: workers > 0, detail: workers > 0 ? 'Keys will be e-mailed.' : 'No worker sends key e-mails.' };
    }),
    await check('Inactivity workers running', async () => {
      const [wakes, warnings] = await Promise.all([inputs.inactivityQueues.timing.getWorkers(), inputs.inactivityQueues.warnings.getWorkers()]);
      const missing = [wakes.length ? null : 'no worker wakes the inactivity watch', warnings.length ? null : 'no worker sends its warning e-mails'].filter(Boolean);
      return missing.length ? { passed: false, detail: `If you stop signing in: ${missing.join(', and ')}.` } : { passed: true, detail: 'The inactivity watch is woken on time and its warnings are e-mailed.' };
    }),
    await check('Never released early', () => {
      // A report now (and, where needed, verified now): the due time, a job a millisecond before it, and one on time.
      const commands = [trigger(inputs.now), verify(inputs.now)];
      const due = dueOf(dryRun(commands).events);
      if (!due) return { passed: false, detail: 'No due time was set.' };
      const early = dryRun([...commands, releaseAt(new Date(Date.parse(due) - 1).toISOString())]);
      const onTime = dryRun([...commands, releaseAt(due)]);
      const passed = early.refused === 1 && !early.events.some((e) => e.type === 'DeliveryReleased') && onTime.events.some((e) => e.type === 'DeliveryReleased');
      return { passed, detail: `A report now would be released at ${due}; a job a millisecond earlier is refused.` };
    }),
    await check('Released exactly once', () => {
      const commands = [trigger(inputs.now), verify(inputs.now)];
      const due = dueOf(dryRun(commands).events)!;
      const run = dryRun([...commands, releaseAt(due), releaseAt(due), trigger(due), releaseAt(new Date(Date.parse(due) + 1000).toISOString())]);
      const releases = run.events.filter((e) => e.type === 'DeliveryReleased').length;
      return { passed: releases === 1, detail: `${releases} release from 3 due jobs and a second report.` };
    }),
  ];
}
