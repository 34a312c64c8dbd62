// `npm start`: builds what is not built yet, then runs the server on the embedded defaults
// (SQLite and files under ./data, mail as .eml files in ./data/outbox) unless configured otherwise.
import { spawn } from 'node:child_process';
import { must, root, serverEnv } from './lib.mjs';

await must(process.execPath, [`${root}/scripts/build.mjs`]);
const server = spawn(process.execPath, ['backend/dist/main.js'], { cwd: root, stdio: 'inherit', env: serverEnv() });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
