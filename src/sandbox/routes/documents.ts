/**
 * Verification documents (production's `/documents`): upload and replace (multipart, the file part read byte
 * for byte), list, read and delete; what is checked and kept is in domain/documents.ts.
 * @module
 */
import type { DocumentReplaceRequest, DocumentUploadRequest } from '../../generated/types';
import type { Handler } from '../domain/context';
import { deleteDocument, findDocument, replaceDocument, uploadDocument } from '../domain/documents';
import { paginate } from '../domain/pagination';
import { ok } from '../domain/reply';

const upload: Handler = (ctx, call) => ok(uploadDocument(ctx, call.body as DocumentUploadRequest, call.files), 201);

const list: Handler = (ctx, call) => {
  const q = call.query as { documentHolder?: string; limit?: number; cursor?: string };
  const matches = [...ctx.world.documents.values()].filter((d) => !d.deleted && (q.documentHolder === undefined || d.data.documentHolder === q.documentHolder));
  return ok(paginate(matches, q, (d) => d.data));
};

const retrieve: Handler = (ctx, call) => ok(findDocument(ctx, call.params.documentId!).data);

const replace: Handler = (ctx, call) => ok(replaceDocument(ctx, call.params.documentId!, call.body as DocumentReplaceRequest, call.files));

const remove: Handler = (ctx, call) => {
  deleteDocument(ctx, call.params.documentId!);
  return { status: 204 };
};

/** The document routes. */
export const documentRoutes = {
  uploadDocument: upload,
  listDocuments: list,
  getDocument: retrieve,
  replaceDocument: replace,
  deleteDocument: remove,
} satisfies Record<string, Handler>;
