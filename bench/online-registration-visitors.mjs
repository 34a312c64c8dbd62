// The virtual visitors of bench/online-registration.mjs, in a worker thread: each keeps one
// keep-alive connection and registers a new person as soon as the previous answer arrived.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, token, phoneId, visitors, seconds } = workerData;
const target = new URL(url);
const headers = { 'content-type': 'application/json', ...(token ? { 'authorization-online': token } : {}) };

function post(agent, body) {
  return new Promise((resolve) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(-1));
    req.end(body);
  });
}

const latencies = [];
const statuses = new Map();
let seq = 0;
const started = performance.now();
const deadline = started + seconds * 1000;
async function visitor() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (performance.now() < deadline) {
    const n = seq++;
    const body = JSON.stringify({
      firstname: `Visitor${n}`,
      lastname: `Bench${n}`,
      email: `visitor${n}@example.com`,
      customField: [{ id: phoneId, value: '+420 601 234 567' }],
      checkingAttributes: { gdpr: true },
    });
    const t0 = performance.now();
    const status = await post(agent, body);
    latencies.push(performance.now() - t0);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  agent.destroy();
}
await Promise.all(Array.from({ length: visitors }, visitor));
parentPort.postMessage({ latencies, statuses, elapsed: (performance.now() - started) / 1000 });
