import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { type AppConfig, ConfigError, loadConfig } from './config/config.js';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const db = config.database.type === 'sqlite' ? `SQLite at ${config.database.file}` : 'MySQL/MariaDB';
  Logger.log(`Accredo listens on http://localhost:${config.port} (${db}, data in ${config.dataDir})`, 'Main');
}

main().catch((err) => {
  Logger.error(`Accredo could not start: ${(err as Error).message}`, (err as Error).stack, 'Main');
  process.exit(1);
});
