import { Node } from '@tiptap/core';

export type CalloutTone = 'info' | 'warning';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    callout: {
      /** Wraps the selected blocks in a callout of this tone, or unwraps them when they are in one already. */
      toggleCallout: (tone: CalloutTone) => ReturnType;
    };
  }
}

/**
 * A highlighted box of blocks: `<div class="callout callout-info">`. Stored as classes only, which
 * the API's sanitiser keeps (it drops data attributes), and which the public site styles.
 */
export const Callout = Node.create({
  name: 'callout',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return {
      tone: {
        default: 'info',
        parseHTML: (element: HTMLElement) => (element.classList.contains('callout-warning') ? 'warning' : 'info'),
        renderHTML: () => ({}),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'div.callout' }];
  },
  renderHTML({ node }) {
    return ['div', { class: `callout callout-${node.attrs.tone === 'warning' ? 'warning' : 'info'}` }, 0];
  },
  addCommands() {
    return {
      toggleCallout:
        (tone) =>
        ({ commands, editor }) =>
          editor.isActive(this.name) ? commands.lift(this.name) : commands.wrapIn(this.name, { tone }),
    };
  },
});
