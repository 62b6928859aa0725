import { App, Button, Card, Checkbox, Input, Select, Space, Spin, Switch, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import ReactQuill from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';
import { api, errorText } from '../../lib/http';
import { useGoBack } from '../member/useGoBack';
import { MediaPreview } from './media';
import { BUTTON_LABELS, buttonProblem, emptyButtons, hasCaption, type MessageButton, type MessageRow } from './model';

const MEDIA_ACCEPT = '.jpg,.jpeg,.png,.gif,.webp,.bmp,.svg,.mp4,.3gp,.mp3,.ogg,.opus,.aac,.m4a,.amr,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv,.zip';
const MAX_MEDIA = 16 * 1024 * 1024;
const TOOLBAR = [['bold', 'italic', 'strike', 'code'], [{ list: 'ordered' }, { list: 'bullet' }], ['blockquote', 'link'], ['clean']];

/** The template form of /message/create and /message/edit?id= (preloaded when an id is given). */
export function MessageForm({ id }: { id: string | null }) {
  const { modal } = App.useApp();
  const goBack = useGoBack('/message');
  const [caption, setCaption] = useState('');
  const [plain, setPlain] = useState('');
  const [file, setFile] = useState<UploadFile | null>(null);
  const [media, setMedia] = useState<string | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const [active, setActive] = useState(true);
  const [withButtons, setWithButtons] = useState(true);
  const [buttons, setButtons] = useState<MessageButton[]>(emptyButtons);
  const [loading, setLoading] = useState(Boolean(id));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fallback = id ? 'Error updating template message' : 'Error saving template message';

  useEffect(() => {
    if (!id) return;
    let live = true;
    api<{ message: MessageRow }>(`/admin/message/${encodeURIComponent(id)}`, { fallback: 'Internal server error' })
      .then(({ message: m }) => {
        if (!live) return;
        setCaption(m.text);
        setMedia(m.media);
        setActive(m.status === 'active');
        setButtons([...m.button, ...emptyButtons()].slice(0, Math.max(3, m.button.length)));
      })
      .catch((err: unknown) => live && setError(errorText(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id]);

  const toggleButtons = (on: boolean) => {
    setWithButtons(on);
    setButtons(on ? emptyButtons() : []);
  };
  const setButton = (index: number, patch: Partial<MessageButton>) => setButtons((bs) => bs.map((b, i) => (i === index ? { ...b, ...patch } : b)));

  const submit = async () => {
    const filled = buttons.filter((b) => b.title.trim() || b.url.trim());
    const problem = filled.map(buttonProblem).find(Boolean);
    if (problem) {
      modal.warning({ title: problem });
      return;
    }
    const keptMedia = file || (media && !removeMedia);
    if (!hasCaption(caption) && !keptMedia && filled.length === 0) {
      setError('No Data');
      return;
    }
    const body = new FormData();
    if (file?.originFileObj) body.append('file', file.originFileObj);
    body.append('text', caption);
    body.append('text_wa', plain.trim());
    if (filled.length) body.append('button', JSON.stringify(filled.map((b) => ({ ...b, title: b.title.trim(), url: b.url.trim() }))));
    body.append('status', active ? 'active' : 'nonactive');
    if (id && removeMedia && !file) body.append('removeMedia', 'true');
    setSaving(true);
    setError(null);
    try {
      await api(id ? `/admin/message/${encodeURIComponent(id)}` : '/admin/message/create', { method: id ? 'PUT' : 'POST', body, fallback });
      goBack();
    } catch (err) {
      setError(errorText(err, fallback));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Spin spinning={loading}>
      {error && (
        <Typography.Paragraph type="danger" data-testid="form-error">
          Error: {error}
        </Typography.Paragraph>
      )}
      <Card style={{ maxWidth: 760 }}>
        <Typography.Text strong>Caption</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          Gunakan {'{name}'} untuk nama target dan {'{phoneNumber}'} untuk nomornya.
        </Typography.Paragraph>
        <div data-testid="caption-editor">
          <ReactQuill
            theme="snow"
            value={caption}
            modules={{ toolbar: TOOLBAR }}
            onChange={(html, _delta, _source, editor) => {
              setCaption(html);
              setPlain(editor.getText());
            }}
          />
        </div>
        <div style={{ marginTop: 16 }}>
          <Typography.Text strong>Media</Typography.Text>
          {media && !removeMedia && !file && (
            <Space style={{ display: 'flex', margin: '8px 0' }}>
              <MediaPreview media={media} />
              <Button size="small" onClick={() => setRemoveMedia(true)}>
                Hapus media
              </Button>
            </Space>
          )}
          <Upload
            accept={MEDIA_ACCEPT}
            maxCount={1}
            fileList={file ? [file] : []}
            beforeUpload={(f) => {
              if (f.size > MAX_MEDIA) modal.warning({ title: 'File terlalu besar: media maksimal 16 MB.' });
              return false;
            }}
            onChange={({ fileList }) => {
              const next = fileList[fileList.length - 1] ?? null;
              setFile(next && (next.size ?? 0) <= MAX_MEDIA ? next : null);
            }}
            onRemove={() => setFile(null)}
          >
            <Button style={{ marginTop: 8 }}>Pilih Media</Button>
          </Upload>
        </div>
        <div style={{ marginTop: 16 }}>
          <Space>
            <Typography.Text strong>Status</Typography.Text>
            <Switch checked={active} onChange={setActive} checkedChildren="active" unCheckedChildren="nonactive" aria-label="status" />
          </Space>
        </div>
        <div style={{ marginTop: 16 }}>
          <Checkbox checked={withButtons} onChange={(e) => toggleButtons(e.target.checked)} style={{ display: 'none' }} data-testid="add-buttons">
            Tambah Button
          </Checkbox>
          {withButtons && (
            <>
              <Typography.Text strong>Button</Typography.Text>
              {buttons.map((b, i) => (
                <Space key={b.id} style={{ display: 'flex', marginTop: 8 }} wrap data-testid={`button-row-${i}`}>
                  <Select<MessageButton['type']>
                    value={b.type}
                    style={{ width: 170 }}
                    onChange={(type) => setButton(i, { type })}
                    options={Object.entries(BUTTON_LABELS).map(([value, label]) => ({ value: value as MessageButton['type'], label }))}
                    aria-label={`button type ${i + 1}`}
                  />
                  <Input placeholder="Judul" value={b.title} maxLength={20} onChange={(e) => setButton(i, { title: e.target.value })} aria-label={`button title ${i + 1}`} />
                  <Input placeholder="URL / nomor / balasan" value={b.url} onChange={(e) => setButton(i, { url: e.target.value })} aria-label={`button url ${i + 1}`} />
                </Space>
              ))}
            </>
          )}
        </div>
        <Button type="primary" style={{ marginTop: 24 }} onClick={() => void submit()} disabled={saving || loading}>
          {saving ? 'Menyimpan...' : 'Simpan'}
        </Button>
      </Card>
    </Spin>
  );
}
