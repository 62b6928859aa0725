import { useTranslate } from '@refinedev/core';
import { Button, Upload } from 'antd';
import type { ReactNode } from 'react';
import type { UploadFile } from 'antd';

// A module of its own: antd's Upload (with the Progress of its file list) is for the three import screens,
// not for every form that imports FormParts' fields.
/** One file to pick ('Pilih File'), then the upload button. */
export function FilePicker({ accept, file, onFile, onUpload, busy, label }: { accept: string; file: UploadFile | null; onFile: (file: UploadFile | null) => void; onUpload: () => void; busy: boolean; label: ReactNode }) {
  const t = useTranslate();
  return (
    <>
      <Upload
        accept={accept}
        maxCount={1}
        fileList={file ? [file] : []}
        beforeUpload={() => false}
        onChange={({ fileList }) => onFile(fileList[fileList.length - 1] ?? null)}
        onRemove={() => onFile(null)}
      >
        <Button>{t('shared.pickFile')}</Button>
      </Upload>
      <Button type="primary" style={{ marginTop: 12 }} onClick={onUpload} disabled={busy}>
        {label}
      </Button>
    </>
  );
}
