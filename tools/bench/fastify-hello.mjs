// The benchmark's baseline: a bare Fastify "hello" handler in a process of its own (like the gateway),
// no plugins, no logging. Listens on 127.0.0.1 (port from argv[2], 0 = any) and prints one JSON line
// { "port": N } on stdout when ready; SIGTERM / SIGINT close it.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));

await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);

// Both outcomes exit, so nothing is left to handle.
const close = () => void app.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGTERM', close);
process.on('SIGINT', close);
