import type { Editor } from '@tiptap/react';
import { useEditorState } from '@tiptap/react';
import {
  Bold,
  Code2,
  Heading2,
  Heading3,
  ImagePlus,
  Info,
  Italic,
  Link2,
  List,
  ListOrdered,
  type LucideIcon,
  Table,
  TriangleAlert,
} from 'lucide-react';

interface Tool {
  label: string;
  icon: LucideIcon;
  run: (editor: Editor) => void;
  isActive?: (editor: Editor) => boolean;
}

const TOOLS: Tool[] = [
  {
    label: 'Heading',
    icon: Heading2,
    run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
    isActive: (e) => e.isActive('heading', { level: 2 }),
  },
  {
    label: 'Subheading',
    icon: Heading3,
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
    isActive: (e) => e.isActive('heading', { level: 3 }),
  },
  { label: 'Bold', icon: Bold, run: (e) => e.chain().focus().toggleBold().run(), isActive: (e) => e.isActive('bold') },
  { label: 'Italic', icon: Italic, run: (e) => e.chain().focus().toggleItalic().run(), isActive: (e) => e.isActive('italic') },
  {
    label: 'Bulleted list',
    icon: List,
    run: (e) => e.chain().focus().toggleBulletList().run(),
    isActive: (e) => e.isActive('bulletList'),
  },
  {
    label: 'Numbered list',
    icon: ListOrdered,
    run: (e) => e.chain().focus().toggleOrderedList().run(),
    isActive: (e) => e.isActive('orderedList'),
  },
  {
    label: 'Code block',
    icon: Code2,
    run: (e) => e.chain().focus().toggleCodeBlock().run(),
    isActive: (e) => e.isActive('codeBlock'),
  },
  {
    label: 'Table',
    icon: Table,
    run: (e) => e.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
  },
  {
    label: 'Info callout',
    icon: Info,
    run: (e) => e.chain().focus().toggleCallout('info').run(),
    isActive: (e) => e.isActive('callout', { tone: 'info' }),
  },
  {
    label: 'Warning callout',
    icon: TriangleAlert,
    run: (e) => e.chain().focus().toggleCallout('warning').run(),
    isActive: (e) => e.isActive('callout', { tone: 'warning' }),
  },
];

const BUTTON =
  'rounded p-1.5 text-zinc-700 hover:bg-zinc-100 aria-pressed:bg-zinc-200 dark:text-zinc-200 dark:hover:bg-zinc-800 dark:aria-pressed:bg-zinc-700';

/** The formatting buttons above the article body; each says what it does, and whether it is on. */
export function EditorToolbar({ editor, onLink, onImage }: { editor: Editor; onLink: () => void; onImage: () => void }) {
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => TOOLS.map((tool) => tool.isActive?.(current) ?? false),
  });
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap gap-0.5 border-b border-zinc-200 p-1 dark:border-zinc-800"
    >
      {TOOLS.map((tool, index) => (
        <button
          key={tool.label}
          type="button"
          className={BUTTON}
          aria-label={tool.label}
          title={tool.label}
          aria-pressed={tool.isActive ? Boolean(active[index]) : undefined}
          // A click leaves the focus (and the selection) in the body, so what is typed next goes
          // there: taken by the button, it came back a frame later, and keys typed in between were
          // lost, a space pressing the button again. Keyboard users still tab to it.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => tool.run(editor)}
        >
          <tool.icon size={16} aria-hidden />
        </button>
      ))}
      <button type="button" className={BUTTON} aria-label="Link" title="Link" onClick={onLink}>
        <Link2 size={16} aria-hidden />
      </button>
      <button type="button" className={BUTTON} aria-label="Image" title="Image" onClick={onImage}>
        <ImagePlus size={16} aria-hidden />
      </button>
    </div>
  );
}
