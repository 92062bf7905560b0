/**
 * Where the new-messages banner (with its View action to /messages) goes on the home
 * page. The messaging capability fills it in; until then it shows nothing.
 */
export function MessagesBannerSlot() {
  return null;
}
