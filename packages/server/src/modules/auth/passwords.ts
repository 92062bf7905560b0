import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id settings: 19 MiB memory, 2 passes, 1 lane. */
const ARGON2_OPTIONS = {
  // Algorithm.Argon2id; the enum is a const enum that isolatedModules cannot read as a value.
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no account (`storedHash` null) it
 * still spends one verification against a throwaway hash, so a wrong username
 * answers as slowly as a wrong password.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
