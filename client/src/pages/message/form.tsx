import { useTranslate } from '@refinedev/core';
import { Create, Edit } from '@refinedev/antd';
import { App, Button, Checkbox, Form, Input, Select, Space, Switch, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { FormError, HiddenSubmit } from '../../components/FormParts';
import { mapFormProps, useResourceForm } from '../../components/ResourceForm';
import { useGoBack } from '../member/useGoBack';
import { showTemplateCheck } from './CloudTemplateCheck';
import { CloudTemplateFields } from './CloudTemplateFields';
import { MediaPreview } from './media';
import { CaptionField } from './captionField';
import { BUTTON_TYPES, buttonProblem, buttonTypeKey, emptyButtons, hasCaption, type MessageButton, type MessageRow, type WaParam } from './model';

const MEDIA_ACCEPT = '.jpg,.jpeg,.png,.gif,.webp,.bmp,.svg,.mp4,.3gp,.mp3,.ogg,.opus,.aac,.m4a,.amr,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv,.zip';
const MAX_MEDIA = 16 * 1024 * 1024;

interface Fields {
  text: string;
  active: boolean;
  waTemplateName?: string | null;
  waTemplateLanguage?: string | null;
  waTemplateParams?: WaParam[];
}

/** The template form of /message/create and /message/edit?id= (preloaded when an id is given): Refine's `<Create>` / `<Edit>`. */
export function MessageForm({ id, title }: { id: string | null; title: string }) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const goBack = useGoBack('/message');
  const plain = useRef('');
  const [file, setFile] = useState<UploadFile | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const [withButtons, setWithButtons] = useState(true);
  const [buttons, setButtons] = useState<MessageButton[]>(emptyButtons);
  const [problem, setProblem] = useState<string | null>(null);
  const { formProps, saveButtonProps, query, loading, error } = useResourceForm<MessageRow, FormData>({
    resource: 'message',
    edit: Boolean(id),
    id,
    // What Meta said about the WhatsApp template is shown before the screen goes back.
    onSaved: (saved) => showTemplateCheck(modal, t, (saved as MessageRow).waTemplateCheck, goBack),
    loadFallback: t('shared.serverError'),
    saveFallback: id ? t('message.errors.update') : t('message.errors.save'),
    select: (m) => ({ ...m, active: m.status === 'active' }),
  });
  const record = query?.data?.data ?? null;
  const media = record?.media ?? null;

  useEffect(() => {
    if (record) setButtons([...record.button, ...emptyButtons()].slice(0, Math.max(3, record.button.length)));
  }, [record]);

  const toggleButtons = (on: boolean) => {
    setWithButtons(on);
    setButtons(on ? emptyButtons() : []);
  };
  const setButton = (index: number, patch: Partial<MessageButton>) => setButtons((bs) => bs.map((b, i) => (i === index ? { ...b, ...patch } : b)));

  const toBody = ({ text, active, waTemplateName, waTemplateLanguage, waTemplateParams }: Fields): FormData | null => {
    const caption = text ?? '';
    const filled = buttons.filter((b) => b.title.trim() || b.url.trim());
    const bad = filled.map(buttonProblem).find(Boolean);
    if (bad) {
      modal.warning({ title: t(bad.key, bad.values) });
      return null;
    }
    const keptMedia = file || (media && !removeMedia);
    if (!hasCaption(caption) && !keptMedia && filled.length === 0) {
      setProblem(t('message.noData'));
      return null;
    }
    setProblem(null);
    const body = new FormData();
    if (file?.originFileObj) body.append('file', file.originFileObj);
    body.append('text', caption);
    body.append('text_wa', plain.current.trim());
    if (filled.length) body.append('button', JSON.stringify(filled.map((b) => ({ ...b, title: b.title.trim(), url: b.url.trim() }))));
    body.append('status', active ? 'active' : 'nonactive');
    if (id && removeMedia && !file) body.append('removeMedia', 'true');
    // Always sent, so clearing the fields clears the stored mapping.
    body.append('waTemplateName', (waTemplateName ?? '').trim());
    body.append('waTemplateLanguage', (waTemplateLanguage ?? '').trim());
    body.append('waTemplateParams', JSON.stringify((waTemplateParams ?? []).filter(Boolean)));
    return body;
  };
  const fieldProps = mapFormProps<Fields, FormData>(formProps, toBody);

  const View = id ? Edit : Create;
  return (
    <View
      title={title}
      resource="message"
      recordItemId={id ?? undefined}
      breadcrumb={false}
      goBack={false}
      isLoading={loading}
      headerButtons={() => null}
      saveButtonProps={saveButtonProps}
      contentProps={{ style: { maxWidth: 760 } }}
    >
      <FormError error={problem ?? error} />
      <Form<Fields> {...fieldProps} initialValues={fieldProps.initialValues ?? { text: '', active: true, waTemplateParams: [] }} layout="vertical">
        <Form.Item label={<Typography.Text strong>{t('message.fields.caption')}</Typography.Text>} extra={t('message.captionHint')} style={{ marginBottom: 16 }}>
          <div data-testid="caption-editor">
            <Form.Item name="text" noStyle>
              <CaptionField label={t('message.fields.caption')} onPlain={(text) => (plain.current = text)} />
            </Form.Item>
          </div>
        </Form.Item>
        <div style={{ marginTop: 16 }}>
          <Typography.Text strong>{t('message.fields.media')}</Typography.Text>
          {media && !removeMedia && !file && (
            <Space style={{ display: 'flex', margin: '8px 0' }}>
              <MediaPreview media={media} />
              <Button size="small" onClick={() => setRemoveMedia(true)}>
                {t('message.removeMedia')}
              </Button>
            </Space>
          )}
          <Upload
            accept={MEDIA_ACCEPT}
            maxCount={1}
            fileList={file ? [file] : []}
            beforeUpload={(f) => {
              if (f.size > MAX_MEDIA) modal.warning({ title: t('message.tooBig') });
              return false;
            }}
            onChange={({ fileList }) => {
              const next = fileList[fileList.length - 1] ?? null;
              setFile(next && (next.size ?? 0) <= MAX_MEDIA ? next : null);
            }}
            onRemove={() => setFile(null)}
          >
            <Button style={{ marginTop: 8 }}>{t('message.pickMedia')}</Button>
          </Upload>
        </div>
        <Space style={{ marginTop: 16 }}>
          <Typography.Text strong>{t('message.fields.status')}</Typography.Text>
          <Form.Item name="active" valuePropName="checked" noStyle>
            <Switch checkedChildren="active" unCheckedChildren="nonactive" aria-label="status" />
          </Form.Item>
        </Space>
        <div style={{ marginTop: 16 }}>
          <Checkbox checked={withButtons} onChange={(e) => toggleButtons(e.target.checked)} style={{ display: 'none' }} data-testid="add-buttons">
            {t('message.addButtons')}
          </Checkbox>
          {withButtons && (
            <>
              <Typography.Text strong>{t('message.fields.button')}</Typography.Text>
              {buttons.map((b, i) => (
                <Space key={b.id} style={{ display: 'flex', marginTop: 8 }} wrap data-testid={`button-row-${i}`}>
                  <Select<MessageButton['type']>
                    value={b.type}
                    style={{ width: 170 }}
                    onChange={(type) => setButton(i, { type })}
                    options={BUTTON_TYPES.map((value) => ({ value, label: t(buttonTypeKey(value)) }))}
                    aria-label={`button type ${i + 1}`}
                  />
                  <Input placeholder={t('message.buttonTitle')} value={b.title} maxLength={20} onChange={(e) => setButton(i, { title: e.target.value })} aria-label={`button title ${i + 1}`} />
                  <Input placeholder={t('message.buttonUrl')} value={b.url} onChange={(e) => setButton(i, { url: e.target.value })} aria-label={`button url ${i + 1}`} />
                </Space>
              ))}
            </>
          )}
        </div>
        <CloudTemplateFields />
        <HiddenSubmit disabled={saveButtonProps.disabled} />
      </Form>
    </View>
  );
}
