import { after, before } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config/index.js';
import { buildService, openRuntime, type Service } from '../../src/main/index.js';
import type { Backend, TestDatabase } from './backends.js';

export const ADMIN_KEY = 'test-admin-key';

export interface Harness {
  app: FastifyInstance;
  service: Service;
  config: Config;
  db: TestDatabase;
  /** alice and carol share team "red"; bob is alone. */
  keys: { admin: string; alice: string; bob: string; carol: string };
  request(method: string, url: string, key: string | null, body?: unknown): Promise<LightMyRequestResponse>;
  upload(key: string, content: Buffer, filename?: string, fileType?: string): Promise<LightMyRequestResponse>;
  /** Uploads `content` and creates an analysis of it; returns the new analysis id. */
  analysis(key: string, content: Buffer, extra?: Record<string, unknown>): Promise<number>;
  waitForStatus(key: string, id: number, done?: string[]): Promise<string>;
}

export function testConfig(db: TestDatabase, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    dataDir: db.dataDir,
    databaseUrl: db.url,
    adminApiKey: ADMIN_KEY,
    workers: 1,
    jobLeaseMs: 2000,
    ...overrides,
  };
}

function multipart(content: Buffer, filename: string, fileType: string) {
  const boundary = '----binlens-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="upload_file_type"\r\n\r\n${fileType}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

// Fixed keys, so a harness restarted on the same database (reuseUsers) still knows them.
const USER_KEYS = { alice: 'test-key-alice', bob: 'test-key-bob', carol: 'test-key-carol' };

export async function createHarness(
  db: TestDatabase,
  overrides: Partial<Config> & { reuseUsers?: boolean } = {},
): Promise<Harness> {
  const { reuseUsers, ...configOverrides } = overrides;
  const config = testConfig(db, configOverrides);
  const service = await buildService(config);
  const { app } = service;
  if (!reuseUsers) {
    const rt = await openRuntime(config);
    await rt.users.create('alice', { team: 'red', apiKey: USER_KEYS.alice });
    await rt.users.create('bob', { apiKey: USER_KEYS.bob });
    await rt.users.create('carol', { team: 'red', apiKey: USER_KEYS.carol });
    await rt.close();
  }
  const keys = { admin: ADMIN_KEY, ...USER_KEYS };

  const h: Harness = {
    app,
    service,
    config,
    db,
    keys,
    request: (method, url, key, body) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: key === null ? {} : { authorization: key },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    upload: (key, content, filename = 'sample.bin', fileType = 'BINARY') => {
      const mp = multipart(content, filename, fileType);
      return app.inject({
        method: 'POST',
        url: '/v2/upload',
        headers: { authorization: key, 'content-type': mp.contentType },
        payload: mp.payload,
      });
    },
    async analysis(key, content, extra = {}) {
      const up = await h.upload(key, content);
      if (up.statusCode !== 200) throw new Error(`upload failed: ${up.body}`);
      const sha = up.json().data.sha_256_hash as string;
      const res = await h.request('POST', '/v2/analyses', key, { filename: 'sample.bin', sha_256_hash: sha, ...extra });
      if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
      return res.json().data.analysis_id as number;
    },
    async waitForStatus(key, id, done = ['Complete', 'Error']) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const s = (await h.request('GET', `/v2/analyses/${id}/status`, key)).json().data.analysis_status as string;
        if (done.includes(s) || Date.now() > deadline) return s;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
  return h;
}

/** One harness per describe block: created before its tests, closed and dropped after. */
export function useHarness(backend: Backend, overrides: Partial<Config> = {}): () => Harness {
  let h: Harness | undefined;
  before(async () => {
    if (backend.skip) return;
    h = await createHarness(await backend.create(), overrides);
  });
  after(async () => {
    if (!h) return;
    await h.service.close();
    await h.db.drop();
  });
  return () => {
    if (!h) throw new Error('harness not started');
    return h;
  };
}
