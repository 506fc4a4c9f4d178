// Whether a started stack is up: GET /api/health until it answers 200, naming what stayed down.
import { StackError } from './stack-node.mjs';

/** Names what is down in a /api/health body (Terminus shape or any { name: { status } } map). */
export function describeHealth(body) {
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.slice(0, 300);
  }
  const down = [];
  const visit = (obj) => {
    if (!obj || typeof obj !== 'object') return;
    for (const [name, value] of Object.entries(obj)) {
      if (value && typeof value === 'object' && typeof value.status === 'string') {
        if (!['up', 'ok', 'healthy'].includes(value.status.toLowerCase())) {
          const detail = value.detail ?? value.message ?? value.error ?? value.reason;
          if (!down.some((d) => d.startsWith(`${name} `) || d === name)) down.push(detail ? `${name} (${detail})` : name);
        }
      }
    }
  };
  visit(parsed.error);
  visit(parsed.details);
  visit(parsed.checks);
  visit(parsed.services);
  visit(parsed.info);
  return down.length ? `down: ${down.join(', ')}` : `body: ${body.slice(0, 300)}`;
}

export async function waitForHealth(url, timeoutMs, cancelled = () => false) {
  const deadline = Date.now() + timeoutMs;
  let last = 'the gateway never answered';
  let everConnected = false;
  while (Date.now() < deadline && !cancelled()) {
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
      everConnected = true;
      const body = await res.text();
      if (res.status === 200) return;
      last = `HTTP ${res.status}, ${describeHealth(body)}`;
    } catch (err) {
      if (!everConnected) last = `the gateway is not answering on ${url} (${err.cause?.code ?? err.name})`;
      else last = `${err.cause?.code ?? err.name}`;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new StackError(`timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${url}/api/health: ${last}`);
}
