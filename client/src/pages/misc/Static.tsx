import { Card, Typography } from 'antd';
import { Link } from 'react-router';

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div style={{ maxWidth: 720, margin: '48px auto', padding: 16 }}>
      <Card>
        <Typography.Title level={3}>{title}</Typography.Title>
        {children}
      </Card>
    </div>
  );
}

/** Passwords are reset by an admin; the page says how to reach one. */
export function ResetPassword() {
  return (
    <Shell title="Reset Password">
      <Typography.Paragraph>
        Untuk mengatur ulang password, silahkan hubungi Admin/CS melalui Telegram support. Admin akan mengatur password baru
        untuk akun Anda.
      </Typography.Paragraph>
      <Link to="/signin">Kembali ke Sign In</Link>
    </Shell>
  );
}

export function Terms() {
  return (
    <Shell title="Syarat dan Ketentuan">
      <Typography.Paragraph>
        Dengan mendaftar Anda setuju untuk hanya mengirim pesan kepada penerima yang bersedia menerimanya, menghormati
        permintaan berhenti (STOP / BERHENTI) dan tidak menghapus pesan yang sudah terkirim.
      </Typography.Paragraph>
    </Shell>
  );
}

export function PrivacyPolicy() {
  return (
    <Shell title="Kebijakan Privasi">
      <Typography.Paragraph>
        Kami menyimpan nama, email dan data rekening Anda untuk menjalankan layanan dan membayar pendapatan Anda. Nomor yang
        meminta berhenti disimpan di daftar penolakan agar tidak pernah dihubungi lagi.
      </Typography.Paragraph>
    </Shell>
  );
}
