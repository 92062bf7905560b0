/** Only letters, digits, underscores, hyphens and periods; 3 to 20 characters. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,20}$/;

export const USERNAME_RULE_MESSAGE =
  'Usernames must be 3 to 20 characters and use only letters, numbers, underscores, hyphens and periods.';

export function isValidUsername(name: string): boolean {
  return USERNAME_PATTERN.test(name);
}
