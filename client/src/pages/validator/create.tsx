import { UploadOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Form, Typography, Upload } from 'antd';
import type { FormItemProps, UploadFile } from 'antd';
import { lastChars } from '../../lib/format';
import { MAX_VALIDATOR_FILE_BYTES } from '../../../../common/jobs';
import { JobFormCard } from '../generator/JobForm';
import { useJobForm, type JobFormValues } from '../generator/useJobForm';

type ValidatorValues = JobFormValues & { file?: UploadFile[] };

/** Keeps the last file picked: the form holds a list of at most one. */
const lastFile = (e: { fileList?: UploadFile[] } | UploadFile[]) => (Array.isArray(e) ? e : (e.fileList ?? [])).slice(-1);

/** 'Tambah Akun Validator' at /validator/create: upload a .csv or .json; `?id=` edits (no new file). */
export function ValidatorCreate() {
  const t = useTranslate();
  const form = useJobForm('validator');
  const { id } = form;
  const files = (Form.useWatch('file', form.form) as UploadFile[] | undefined) ?? [];
  const fileName = (form.formProps.initialValues as { fileName?: string }).fileName ?? '';

  const fileRule: NonNullable<FormItemProps['rules']>[number] = {
    validator: (_, value: UploadFile[] | undefined) => {
      const file = value?.[0];
      if (!file) return Promise.reject(new Error(t('validator.fileRequired')));
      if (!/\.(csv|json)$/i.test(file.name)) return Promise.reject(new Error(t('validator.fileType')));
      if ((file.size ?? 0) > MAX_VALIDATOR_FILE_BYTES) return Promise.reject(new Error(t('validator.fileSize')));
      return Promise.resolve();
    },
  };

  const submit = () => {
    const values = form.form.getFieldsValue(true) as ValidatorValues;
    const body = new FormData();
    const picked = values.file?.[0]?.originFileObj;
    if (!id && picked) body.append('file', picked);
    for (const [key, value] of Object.entries(form.settingsBody(values))) body.append(key, String(value ?? ''));
    void form.save(body);
  };

  const disabled = form.account === 'new' || (!files.length && !id);

  return (
    <JobFormCard title={t('validator.createTitle')} form={form} disabled={disabled} onSubmit={submit}>
      {id ? (
        <Form.Item label={t('validator.targetFile')}>
          <Typography.Text title={fileName}>{lastChars(fileName, 20)}</Typography.Text>
        </Form.Item>
      ) : (
        <Form.Item label={t('validator.fields.file')} name="file" valuePropName="fileList" getValueFromEvent={lastFile} rules={[fileRule]}>
          <Upload accept=".csv,.json" maxCount={1} beforeUpload={() => false}>
            <Button icon={<UploadOutlined aria-hidden />}>{t('validator.pickFile')}</Button>
          </Upload>
        </Form.Item>
      )}
    </JobFormCard>
  );
}
