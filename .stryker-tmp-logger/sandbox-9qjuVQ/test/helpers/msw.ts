/** An msw server for one test file: listening for the file, handlers reset after each test. */
// @ts-nocheck

import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupServer } from 'msw/node';

export function useMswServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
