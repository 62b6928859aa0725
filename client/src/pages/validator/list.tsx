import { lastChars } from '../../lib/format';
import { JobList } from '../generator/JobList';

/** 'Daftar Validator' at /validator/list: the Target File links to the uploaded file. */
export function ValidatorList() {
  return (
    <JobList
      kind="validator"
      title="Daftar Validator"
      fallback="Error fetching Validator list"
      target={{
        title: 'Target File',
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
