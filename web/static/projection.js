// When the error budget runs out at the current burn: the projection the
// budget tile and the budget chart show.
//
// Each minute the budget left falls by burn/budget_minutes (docs/model.md,
// the burn relation), so its mean fall over the last WINDOW minutes is the
// burn of those minutes (the 5-minute window's, as the model averages its
// windows minute by minute) in budget per minute. At that pace the budget
// left lasts left/fall minutes more; the projection is the first whole
// minute at which it is gone.

export const WINDOW = 5;

// exhaustion returns, for the rows of a shift so far, {spent: true} once
// the budget is gone, {minute: null} when it does not fall (no burn), or
// {minute, in}: the minute of the shift at which it runs out and how many
// minutes from the last row that is. No rows, or one, give null.
export function exhaustion(rows) {
  const n = rows.length;
  if (n < 2) return null;
  const last = rows[n - 1], left = last.budget_left;
  if (!(left > 0)) return { spent: true };
  const k = Math.min(WINDOW, n - 1);
  const fall = (rows[n - 1 - k].budget_left - left) / k;
  if (!(fall > 0)) return { minute: null };
  const inMinutes = Math.ceil(left / fall - 1e-9);
  return { minute: last.minute + inMinutes, in: inMinutes };
}
