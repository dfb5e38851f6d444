import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from './schema.js';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  username: string;
  email: string;
  role: string;
  teamName: string | null;
  apiKeyHash: string;
}

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  byKeyHash(hash: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('api_key_hash', '=', hash).executeTakeFirst();
  }

  byUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  byId(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Creates the user (and its team when new) in one transaction. */
  create(u: NewUser): Promise<UserRow> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      let teamId: number | null = null;
      if (u.teamName !== null) {
        const team = await tx.selectFrom('teams').select('id').where('name', '=', u.teamName).executeTakeFirst();
        teamId =
          team?.id ??
          (
            await tx
              .insertInto('teams')
              .values({ name: u.teamName, created_at: now })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
      }
      return tx
        .insertInto('users')
        .values({
          username: u.username,
          email: u.email,
          role: u.role,
          team_id: teamId,
          api_key_hash: u.apiKeyHash,
          first_name: '',
          last_name: '',
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** Every user with its team's name, by id. */
  list(): Promise<(UserRow & { team_name: string | null })[]> {
    return this.db
      .selectFrom('users')
      .leftJoin('teams', 'teams.id', 'users.team_id')
      .selectAll('users')
      .select('teams.name as team_name')
      .orderBy('users.id')
      .execute();
  }

  setKeyHash(id: number, hash: string): Promise<unknown> {
    return this.db.updateTable('users').set({ api_key_hash: hash }).where('id', '=', id).execute();
  }
}
