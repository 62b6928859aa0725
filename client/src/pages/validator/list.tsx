import { useTranslate } from '@refinedev/core';
import { lastChars } from '../../lib/format';
import { JobList } from '../generator/JobList';

/** 'Daftar Validator' at /validator/list: the Target File links to the uploaded file. */
export function ValidatorList() {
  const t = useTranslate();
  return (
    <JobList
      kind="validator"
      target={{
        title: t('validator.targetFile'),
        key: 'file',
        render: (_, r) =>
          r.fileUrl ? (
            <a href={r.fileUrl} target="_blank" rel="noopener noreferrer" title={r.fileName} data-testid="target-file">
              {lastChars(r.fileName ?? '', 20)}
            </a>
          ) : (
            '-'
          ),
      }}
    />
  );
}
