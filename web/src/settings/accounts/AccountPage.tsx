export function AccountPage() {
  return null;
}
