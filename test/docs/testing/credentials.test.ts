import { AuthenticationError, Crossborder, PermissionDeniedError } from 'crossborder-sdk';
import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';
import { expect, it } from 'vitest';

// Your code's path for refused credentials: a client whose token id is a magic value.
it('answers 401 and 403 for the magic token ids, and nothing else', async () => {
  const sandbox = createSandbox();
  const client = (tokenId: string) => new Crossborder({ tokenId, clientSecret: 'any', environment: 'sandbox', fetch: sandbox.fetch });

  await expect(client(MAGIC.unauthorizedTokenId).customers.list()).rejects.toMatchObject({
    constructor: AuthenticationError,
    status: 401,
    code: 'UNAUTHORIZED',
  });
  await expect(client(MAGIC.forbiddenTokenId).customers.list()).rejects.toMatchObject({ constructor: PermissionDeniedError, status: 403, code: 'FORBIDDEN' });
  expect((await client('any-other-token').customers.list()).data).toEqual([]);
  await sandbox.close();
});
