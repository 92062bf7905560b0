import type { RoleName } from '@mesmer/shared/domain/permissions';

/** An account as seeding makes it: its e-mail confirmed, its password hashed by the auth module. */
export interface SeedAccount {
  username: string;
  email: string;
  password: string;
  biography?: string;
  points?: number;
  streak?: number;
  roles: readonly RoleName[];
}

/**
 * What seeding asks of accounts. The auth module answers it (services.auth.seedAccounts, passed in
 * by whoever seeds), so db/ imports no module.
 */
export interface SeedAccounts {
  idOf(username: string): Promise<number | null>;
  exists(id: number): Promise<boolean>;
  /** Makes the site owner (id 1) with its roles; null when id 1 cannot be taken. */
  createOwner(account: SeedAccount): Promise<number | null>;
  /** Makes an account with its roles; null when its username or e-mail is taken. */
  create(account: SeedAccount): Promise<number | null>;
  /** Whether the account named `username` exists and `password` is its password. */
  hasPassword(username: string, password: string): Promise<boolean>;
}
