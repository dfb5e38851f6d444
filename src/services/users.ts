import { createHash, randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { GetMeResponse } from '../contracts/index.js';
import type { Store, UserRow } from '../store/index.js';
import type { Caller } from './access.js';

/** API keys are stored as their SHA-256: keys are 256-bit random, so a fast hash is enough. */
export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** The key hash of a user whose key was revoked starts with this. */
const REVOKED = 'revoked:';

export const newApiKey = () => `bl_${randomBytes(32).toString('base64url')}`;

export const toCaller = (u: UserRow): Caller => ({ id: u.id, username: u.username, teamId: u.team_id, role: u.role });

export class UsersService {
  constructor(private readonly store: Store) {}

  async authenticate(key: string | undefined): Promise<Caller | null> {
    if (!key) return null;
    const user = await this.store.users.byKeyHash(hashApiKey(key.trim()));
    return user ? toCaller(user) : null;
  }

  /** Creates a user and returns its API key (shown once; only the hash is kept). */
  async create(username: string, opts: { team?: string | null; role?: string; apiKey?: string } = {}) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(username))
      throw new Error(`invalid username "${username}": use 1-64 of A-Z a-z 0-9 _ . -`);
    if (await this.store.users.byUsername(username)) throw new Error(`user "${username}" already exists`);
    const apiKey = opts.apiKey ?? newApiKey();
    const user = await this.store.users.create({
      username,
      email: `${username}@binlens.local`,
      role: opts.role ?? 'USER',
      teamName: opts.team ?? null,
      apiKeyHash: hashApiKey(apiKey),
    });
    return { user, apiKey };
  }

  /**
   * Ensures the bootstrap admin exists. With a configured key, the admin's key is set to it; otherwise a
   * new admin gets a generated key, returned so the caller can print it once.
   */
  async bootstrapAdmin(configuredKey: string | null): Promise<string | null> {
    const admin = await this.store.users.byUsername('admin');
    if (admin) {
      if (configuredKey) await this.store.users.setKeyHash(admin.id, hashApiKey(configuredKey));
      return null;
    }
    const { apiKey } = await this.create('admin', {
      role: 'ADMIN',
      ...(configuredKey ? { apiKey: configuredKey } : {}),
    });
    return configuredKey ? null : apiKey;
  }

  /** Every user, for administrators: whether its key works (a revoked key's hash can match no key). */
  async list() {
    return (await this.store.users.list()).map((u) => ({
      id: u.id,
      username: u.username,
      role: u.role,
      team: u.team_name,
      createdAt: u.created_at,
      revoked: u.api_key_hash.startsWith(REVOKED),
    }));
  }

  /** A new API key for the user (returned once); the old one stops working. */
  async rotateKey(username: string): Promise<string> {
    const user = await this.existing(username);
    const apiKey = newApiKey();
    await this.store.users.setKeyHash(user.id, hashApiKey(apiKey));
    return apiKey;
  }

  /** The user's key stops working; rotateKey gives it a new one. */
  async revokeKey(username: string): Promise<void> {
    const user = await this.existing(username);
    // Not hex, so no key hashes to it; the id keeps it unique (the column is).
    await this.store.users.setKeyHash(user.id, `${REVOKED}${user.id}`);
  }

  private async existing(username: string) {
    const user = await this.store.users.byUsername(username);
    if (!user) throw new Error(`no user "${username}" (binlens users list shows them)`);
    return user;
  }

  async me(caller: Caller): Promise<Static<typeof GetMeResponse>> {
    const u = await this.store.users.byId(caller.id);
    if (!u) throw new Error('authenticated user vanished');
    return {
      username: u.username,
      user_id: u.id,
      first_name: u.first_name,
      last_name: u.last_name,
      email: u.email,
      creation: new Date(u.created_at).toISOString(),
      tutorial_seen: true,
      role: u.role as Static<typeof GetMeResponse>['role'],
    };
  }
}
