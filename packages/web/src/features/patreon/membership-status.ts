import type { SelfUser } from '@mesmer/shared/api/users';

export type MembershipStatus = 'Cancelled' | 'Active' | 'Ended';

/** Spec: Cancelled if cancelled, else Active if active, else Ended. */
export function membershipStatus(
  m: Pick<SelfUser['memberships'][number], 'active' | 'cancelled'>,
): MembershipStatus {
  if (m.cancelled) return 'Cancelled';
  return m.active ? 'Active' : 'Ended';
}
