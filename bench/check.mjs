// Benchmark (issue 16): the check by code, GET api/admin/v1/user/check/{bc}, beside a bare Fastify
// hello-world in the same run: bench/auth.mjs with --route check (same flags).
//   node bench/check.mjs [--db sqlite|mariadb] [--rounds 7] [--requests 5000] [--concurrency 50]
import { spawn } from 'node:child_process';

const child = spawn(
  process.execPath,
  [new URL('./auth.mjs', import.meta.url).pathname, '--route', 'check', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
child.on('exit', (code) => process.exit(code ?? 1));
