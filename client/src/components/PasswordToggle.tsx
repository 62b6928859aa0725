import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

type Cloned = Pick<React.ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'onClick' | 'onMouseDown' | 'onMouseUp'>;

/** The toggle; antd gives it its click handler, its class and its mouse handlers (which keep a mouse click's focus in the field). */
function PasswordToggleButton({ visible, onClick, ...rest }: Cloned & { visible: boolean }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      {...rest}
      aria-label={visible ? t('common.hidePassword') : t('common.showPassword')}
      onClick={(e) => {
        onClick?.(e);
        // The field focuses itself on any click inside it; a key press on the toggle keeps focus on the toggle.
        e.stopPropagation();
      }}
    >
      {visible ? <EyeOutlined aria-hidden /> : <EyeInvisibleOutlined aria-hidden />}
    </button>
  );
}

/**
 * `iconRender` for antd's Input.Password. antd's own toggle is an icon taken out of the tab order and named
 * after the icon ('eye-invisible'); this one is a button that Tab reaches and Enter or Space presses, named
 * 'Tampilkan password' / 'Sembunyikan password' ('Show password' / 'Hide password').
 */
export function passwordToggle(visible: boolean): React.ReactNode {
  return <PasswordToggleButton visible={visible} />;
}
