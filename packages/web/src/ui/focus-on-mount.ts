/**
 * A ref that focuses its element once it is in the page: what React's `autoFocus` does, kept as a
 * ref because the shipped runtime (preact/compat, decision 031) renders `autoFocus` as the HTML
 * attribute, which browsers honour only on page load.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
