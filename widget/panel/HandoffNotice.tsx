/**
 * What the visitor reads when the assistant asked for a person or could not answer. Handing the
 * conversation to a person (a ticket) is the next increment of issue 34: it replaces this line
 * with a "Talk to a person" action. Until then the panel offers nothing that would do nothing.
 */
export function HandoffNotice() {
  return <p class="notice">The assistant could not answer this; try other words or search the help center.</p>;
}
