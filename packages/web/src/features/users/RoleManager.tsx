import type { PublicUser } from '@mesmer/shared/api/users';
import { GRANTABLE_ROLES, type GrantableRole } from '@mesmer/shared/domain/permissions';
import { type FormEvent, useId, useRef, useState } from 'react';
import { FormError, Spinner, Tooltip } from '../../ui/index.ts';
import { useChangeRole } from './api.ts';
import styles from './RoleManager.module.css';

const isGrantable = (name: string): name is GrantableRole =>
  (GRANTABLE_ROLES as readonly string[]).includes(name);

/**
 * An administrator's view of a user's roles on their page (decision 002): every role held, each
 * grantable one with a remove button, and a select of the grantable roles not held to add one.
 * Administrator is shown but not changed here (`npm run admin -- role` does that).
 * `username`: the page's username, whose profile the answer updates.
 */
export function RoleManager({ user, username }: { user: PublicUser; username: string }) {
  const change = useChangeRole(username);
  const headingId = useId();
  const held = user.roles.map((r) => r.name);
  const addable = GRANTABLE_ROLES.filter((r) => !held.includes(r));
  const [chosen, setChosen] = useState<GrantableRole | ''>('');
  const toAdd = chosen && addable.includes(chosen) ? chosen : addable[0];
  const pending = change.isPending ? change.variables : undefined;
  const select = useRef<HTMLSelectElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (toAdd && !change.isPending) change.mutate({ userId: user.id, role: toAdd, grant: true });
  };
  // The removed role's button goes: keyboard focus moves to the select, which now offers it. From the
  // promise: mutate's own onSuccess did not run on preact/compat, what ships (decision 031).
  const remove = (role: GrantableRole) =>
    change.mutateAsync({ userId: user.id, role, grant: false }).then(
      () => select.current?.focus(),
      () => {}, // shown by FormError below
    );

  return (
    <section className={styles.roles} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.title}>
        Roles
      </h2>
      {held.length === 0 ? (
        <p className="muted">No roles.</p>
      ) : (
        <ul className={styles.list} aria-label="Roles held">
          {user.roles.map((role) => (
            <li key={role.name} className={styles.role}>
              <span>{role.name}</span>
              {isGrantable(role.name) &&
                (pending?.role === role.name && !pending.grant ? (
                  <Spinner size={16} label={`Removing role ${role.name}`} />
                ) : (
                  <Tooltip content={`Remove role ${role.name}`}>
                    <button
                      type="button"
                      className={styles.remove}
                      aria-label={`Remove role ${role.name}`}
                      disabled={change.isPending}
                      onClick={() => remove(role.name as GrantableRole)}
                    >
                      ×
                    </button>
                  </Tooltip>
                ))}
            </li>
          ))}
        </ul>
      )}
      {addable.length > 0 && toAdd && (
        <form className={styles.add} onSubmit={submit}>
          <select
            ref={select}
            className="select"
            aria-label="Role to add"
            value={toAdd}
            onChange={(e) => setChosen(e.target.value as GrantableRole)}
          >
            {addable.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-primary btn-small" aria-disabled={change.isPending}>
            {pending?.grant && <Spinner size={16} label={`Adding role ${pending.role}`} />}
            Add role
          </button>
        </form>
      )}
      <FormError message={change.error?.message} />
    </section>
  );
}
