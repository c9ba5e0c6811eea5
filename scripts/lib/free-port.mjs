#!/usr/bin/env node
// Prints a TCP port that is free on 127.0.0.1 right now (the kernel picks it). nginx needs a concrete
// port in its config; the script retries with another port if nginx then fails to bind.
import { createServer } from 'node:net';

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  server.close(() => process.stdout.write(`${port}\n`));
});
