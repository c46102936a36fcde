import { EditorContent, useEditor } from '@tiptap/react';
import { useState } from 'react';
import { articleExtensions } from './article-extensions';
import { EditorToolbar } from './EditorToolbar';
import { ImageDialog } from './ImageDialog';
import { LinkDialog } from './LinkDialog';
import { cleanPastedHtml } from './paste-cleaning';

/**
 * The article body: TipTap over ProseMirror, with its toolbar. `onChange` gets the HTML after each
 * edit; `content` is read once (a new `key` starts it over, as taking another version does).
 */
export function RichTextEditor({
  content,
  onChange,
  labelledBy,
  describedBy,
  invalid,
}: {
  content: string;
  onChange: (html: string) => void;
  labelledBy: string;
  describedBy?: string;
  invalid: boolean;
}) {
  const [linking, setLinking] = useState(false);
  const [addingImage, setAddingImage] = useState(false);
  const editor = useEditor({
    extensions: articleExtensions,
    content,
    immediatelyRender: true,
    editorProps: {
      transformPastedHTML: cleanPastedHtml,
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        'aria-invalid': String(invalid),
        class: 'article-body min-h-64 px-3 py-2 text-sm outline-none',
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.getHTML()),
  });
  if (!editor) {
    return null;
  }
  return (
    <div className="rounded-md border border-zinc-300 bg-white focus-within:ring-2 focus-within:ring-blue-500 dark:border-zinc-700 dark:bg-zinc-900">
      <EditorToolbar editor={editor} onLink={() => setLinking(true)} onImage={() => setAddingImage(true)} />
      <EditorContent editor={editor} />
      {linking ? (
        <LinkDialog
          open
          initial={editor.getAttributes('link').href ?? ''}
          onOpenChange={setLinking}
          onApply={(href) =>
            href
              ? editor.chain().focus().extendMarkRange('link').setLink({ href }).run()
              : editor.chain().focus().extendMarkRange('link').unsetLink().run()
          }
        />
      ) : null}
      <ImageDialog
        open={addingImage}
        onOpenChange={setAddingImage}
        onInsert={(image) => editor.chain().focus().setImage(image).createParagraphNear().run()}
      />
    </div>
  );
}
