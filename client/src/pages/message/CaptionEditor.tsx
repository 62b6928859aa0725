/**
 * The caption's rich-text editor (Quill through react-quill-new, about 55 KB gzip), loaded on demand by
 * `CaptionField` (captionField.tsx): the template screens draw a look-alike until the caption is hovered,
 * touched or focused.
 */
import { useEffect, useRef } from 'react';
import ReactQuill from 'react-quill-new';
import { CAPTION_TOOLBAR } from './captionToolbar';

// Tab and Shift+Tab leave the editor (a WhatsApp caption has no use for a tab), so the rest of the form
// stays reachable by keyboard: the bindings hand the key back to the browser.
const MODULES = {
  toolbar: CAPTION_TOOLBAR.map((group) => group.map(({ format, value }) => (value ? { [format]: value } : format))),
  keyboard: {
    bindings: {
      tab: { key: 'Tab', handler: () => true },
      indent: { key: 'Tab', handler: () => true },
      outdent: { key: 'Tab', shiftKey: true, handler: () => true },
    },
  },
};

export interface CaptionEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  /** Receives the editor's plain text. */
  onPlain: (text: string) => void;
  /** The caption's label, the editing area's accessible name. */
  label: string;
  /** Take the focus once drawn (the look-alike had it), with the caret at the end. */
  autoFocus?: boolean;
}

export default function CaptionEditor({ value, onChange, onPlain, label, autoFocus }: CaptionEditorProps) {
  const ref = useRef<ReactQuill>(null);
  useEffect(() => {
    const editor = ref.current?.getEditor();
    if (!editor) return;
    editor.root.setAttribute('aria-label', label);
    editor.root.setAttribute('aria-multiline', 'true');
    editor.root.setAttribute('role', 'textbox');
    if (autoFocus) editor.setSelection(editor.getLength(), 0);
    // Only when first drawn: the label follows the language, the focus is taken once.
  }, []);
  useEffect(() => ref.current?.getEditor().root.setAttribute('aria-label', label), [label]);
  return (
    <ReactQuill
      ref={ref}
      theme="snow"
      value={value ?? ''}
      modules={MODULES}
      onChange={(html, _delta, _source, editor) => {
        onChange?.(html);
        onPlain(editor.getText());
      }}
    />
  );
}
