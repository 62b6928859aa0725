// Only the two inputs the sign-in pages use: antd's `Input` index also carries TextArea, Search and
// OTP, which /signin would otherwise download.
export { default as TextInput } from 'antd/es/input/Input';
export { default as PasswordInput } from 'antd/es/input/Password';
