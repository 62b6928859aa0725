/** The caption editor's toolbar, shared by the editor (Quill's `modules.toolbar`) and its look-alike. */
export interface ToolbarButton {
  format: string;
  value?: string;
}

export const CAPTION_TOOLBAR: ToolbarButton[][] = [
  [{ format: 'bold' }, { format: 'italic' }, { format: 'strike' }, { format: 'code' }],
  [
    { format: 'list', value: 'ordered' },
    { format: 'list', value: 'bullet' },
  ],
  [{ format: 'blockquote' }, { format: 'link' }],
  [{ format: 'clean' }],
];
