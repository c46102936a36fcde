import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';
import { Callout } from './callout-extension';

/**
 * What an article may hold: the editor's schema is also the paste filter, so whatever a pasted
 * page (Google Docs, Word, the web) holds beyond it (styles, scripts, event handlers, fonts) is
 * dropped, and headings, lists, links, tables and code are kept.
 */
export const articleExtensions = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4] },
    // Its default check refuses javascript: and other script addresses, typed or pasted.
    link: { openOnClick: false, autolink: true },
  }),
  Image.configure({ inline: false, allowBase64: false }),
  TableKit.configure({ table: { resizable: false } }),
  Callout,
];
