import { App, Card, Form, Input, Select, Spin } from 'antd';
import { supportedCountries } from '../../../../common/phone';
import { atLeast, FormError, IntegerItem, SaveButton } from '../../components/FormParts';
import { PageTitle } from '../../components/PageTitle';
import { api, ApiError } from '../../lib/http';
import { reloadConfig } from '../../lib/config';
import { useFormLoad, useSaveForm } from '../../lib/useSaveForm';

export interface Settings {
  interval_min: number;
  interval_max: number;
  price: number;
  bank_names: string;
  colors: string;
  referral_percent: number;
  info: string;
  recipient_cooldown: number;
  default_country: string;
}

const regionNames = new Intl.DisplayNames(['id'], { type: 'region' });
const COUNTRY_OPTIONS = supportedCountries().map((code) => ({ value: code, label: `${code} — ${regionNames.of(code) ?? code}` }));

/** /settings ('Form Pengaturan'): the global settings, every field required. */
export function SettingsForm() {
  const { message } = App.useApp();
  const [form] = Form.useForm<Settings>();
  const { saving, error, setError, run } = useSaveForm();
  const loading = useFormLoad({
    key: 'settings',
    load: () => api<{ setting: Settings }>('/admin/setting/get', { fallback: 'Error fetching Settings' }),
    apply: (res) => form.setFieldsValue(res.setting),
    onError: setError,
    fallback: 'Error fetching Settings',
  });

  const save = (values: Settings) =>
    run(
      async () => {
        const res = await api<{ setting: Settings; msg?: string }>('/admin/setting/update', {
          method: 'PUT',
          body: values,
          fallback: 'Network error. Please try again.',
        });
        form.setFieldsValue(res.setting);
        reloadConfig();
        void message.success(res.msg ?? 'Pengaturan berhasil disimpan.');
      },
      (err) => {
        if (err instanceof ApiError && err.errors) {
          form.setFields(Object.entries(err.errors).map(([name, msg]) => ({ name: name as keyof Settings, errors: [msg] })));
        }
      },
    );

  return (
    <div>
      <PageTitle title="Form Pengaturan" />
      <FormError error={error} />
      <Spin spinning={loading}>
        <Card style={{ maxWidth: 640 }}>
          <Form form={form} layout="vertical" onFinish={save}>
            <IntegerItem label="Interval Min (s)" name="interval_min" what="Interval Min" />
            <IntegerItem label="Interval Max (s)" name="interval_max" what="Interval Max" dependencies={['interval_min']} rules={[atLeast('interval_min')]} />
            <IntegerItem label="Harga per Blast (Rp.)" name="price" what="Harga per Blast" extra="Dipakai bila member tidak punya fee sendiri dan belum masuk level mana pun." />
            <Form.Item label="Daftar Bank" name="bank_names" rules={[{ required: true, whitespace: true, message: 'Daftar Bank wajib diisi.' }]} extra="Pisahkan dengan koma dan spasi, mis. BCA, MANDIRI, BRI">
              <Input />
            </Form.Item>
            <Form.Item label="Warna Level" name="colors" rules={[{ required: true, whitespace: true, message: 'Warna Level wajib diisi.' }]} extra="Warna hex dipisahkan koma dan spasi, mis. #2C2C2C, #3E3A32">
              <Input />
            </Form.Item>
            <IntegerItem label="Persentase Referal (%)" name="referral_percent" what="Persentase Referal" max={100} extra="0 - 100" />
            <IntegerItem
              label="Jeda Penerima (jam)"
              name="recipient_cooldown"
              what="Jeda Penerima"
              max={8760}
              extra="Nomor yang sudah dikirimi pesan tidak dikirimi lagi sebelum jeda ini lewat."
            />
            <Form.Item
              label="Kode Negara Default"
              name="default_country"
              extra="Nomor yang ditulis tanpa kode negara (mis. 0812… atau 812…) dibaca sebagai nomor negara ini."
            >
              <Select showSearch options={COUNTRY_OPTIONS} optionFilterProp="label" />
            </Form.Item>
            <Form.Item label="Info" name="info" rules={[{ required: true, whitespace: true, message: 'Info wajib diisi.' }]} extra="Ditampilkan sebagai banner di dashboard member.">
              <Input.TextArea rows={4} maxLength={5000} />
            </Form.Item>
            <SaveButton saving={saving} />
          </Form>
        </Card>
      </Spin>
    </div>
  );
}
