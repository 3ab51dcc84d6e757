// The S3-compatible server of the tests and the memory benchmark: s3rver (npm) on 127.0.0.1 and a
// free port, storing in the folder given, with one bucket. Run as
//   node --openssl-legacy-provider test/support/s3rver-child.js <folder> <bucket>
// (s3rver's ListObjectsV2 continuation tokens use DES, which OpenSSL 3 keeps in its legacy
// provider); prints {"port":N} once listening; stops on SIGTERM.
// s3rver lacks two calls of multipart uploads: AbortMultipartUpload (DELETE ?uploadId: 405) and
// ListMultipartUploads (GET ?uploads: 501). They are added below, over s3rver's own folder of
// uploads (<folder>/<bucket>/._S3rver_uploads/<uploadId>/{key,1,2...}), without signature checks;
// and a ranged GET of the first byte alone is corrected (below).
'use strict';
const { existsSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const S3rver = require('s3rver');
const S3Error = require('s3rver/lib/models/error');

const [directory, bucket] = process.argv.slice(2);
const uploadsOf = (name) => join(directory, name, '._S3rver_uploads');

async function multipartUploads(ctx, next) {
  // path style: /<bucket>/<key> (the SDK lists uploads as GET /<bucket>/?uploads)
  const [name, ...key] = ctx.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (ctx.method === 'DELETE' && 'uploadId' in ctx.query && key.length > 0) {
    const uploadId = String(ctx.query.uploadId);
    const folder = join(uploadsOf(name), uploadId);
    if (!/^[0-9a-f]+$/.test(uploadId) || !existsSync(folder))
      throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });
    rmSync(folder, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  if (ctx.method === 'GET' && 'uploads' in ctx.query && key.length === 0 && name) {
    const ids = existsSync(uploadsOf(name)) ? readdirSync(uploadsOf(name)).sort() : [];
    const uploads = ids.map((id) => ({
      Key: readFileSync(join(uploadsOf(name), id, 'key'), 'utf8'),
      UploadId: id,
      Initiated: statSync(join(uploadsOf(name), id, 'key')).mtime.toISOString(),
    }));
    ctx.body = { ListMultipartUploadsResult: { Bucket: name, IsTruncated: false, Upload: uploads } };
    return;
  }
  await next();
}

const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
// before s3rver's router (its last middleware), after its XML encoding of object bodies
server.middleware.splice(server.middleware.length - 1, 0, multipartUploads);
// s3rver reads `Range: bytes=0-0` as the whole object (`options.end || Infinity`): a zero that is
// truthy keeps the first byte alone (Math.min turns it back into the number 0)
const getObject = server.store.getObject.bind(server.store);
server.store.getObject = (name, key, options) =>
  getObject(name, key, options && options.end === 0 ? { ...options, end: new Number(0) } : options);
server.run().then(
  ({ port }) => process.stdout.write(`${JSON.stringify({ port })}\n`),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
process.once('SIGTERM', () => server.close().finally(() => process.exit(0)));
