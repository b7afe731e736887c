/**
 * A real redis-server (Debian's package; `.ci/run` installs it) for a test file: started on 127.0.0.1
 * with a random port, no persistence, and stopped by its pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';

/** A free TCP port on 127.0.0.1 (bound and released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

export interface RedisServer {
  port: number;
  stop(): void;
}

/** Starts redis-server and waits (bounded) until it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run installs it); this test needs a real one');
  }
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined); // refused until the server is up: expected
  try {
    for (let i = 0; ; i++) {
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') break;
      } catch {
        if (i > 100) throw new Error(`redis-server did not answer on 127.0.0.1:${port}`);
        probe.disconnect();
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  } finally {
    probe.disconnect();
  }
  return { port, stop: () => void child.kill('SIGTERM') };
}
