/**
 * The smallest list screen the required stack allows, for `npm run bench:client:packages -- --floor`:
 * React DOM, react-router, Refine (core, react-router, `useTable` from @refinedev/antd), antd's
 * ConfigProvider, App, Layout, Menu and Table, i18next with react-i18next, one resource, one column,
 * a data provider of a few lines. Never served; it only measures what that stack weighs.
 */
import { Refine, useMenu, type DataProvider } from '@refinedev/core';
import { useTable } from '@refinedev/antd';
import routerProvider from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider, Layout, Menu, Table } from 'antd';
import idID from 'antd/locale/id_ID';
import i18n from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next, useTranslation } from 'react-i18next';
import { BrowserRouter, Link, Outlet, Route, Routes } from 'react-router';

void i18n.use(initReactI18next).init({ lng: 'id', resources: { id: { translation: { number: 'Nomor' } } } });

const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async ({ resource, pagination }) => {
    const res = await fetch(`/api/${resource}?page=${pagination?.currentPage ?? 1}`);
    const body = (await res.json()) as { data: Array<{ id: number; number: string }>; meta: { total: number } };
    return { data: body.data as never[], total: body.meta.total };
  },
  getOne: async () => ({ data: {} as never }),
  create: async () => ({ data: {} as never }),
  update: async () => ({ data: {} as never }),
  deleteOne: async () => ({ data: {} as never }),
};

function Shell() {
  const { menuItems, selectedKey } = useMenu();
  return (
    <Layout>
      <Layout.Sider>
        <Menu selectedKeys={[selectedKey]} items={menuItems.map((m) => ({ key: m.key, label: <Link to={m.route ?? '/'}>{m.label}</Link> }))} />
      </Layout.Sider>
      <Layout.Content>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}

function NumberList() {
  const { t } = useTranslation();
  const { tableProps } = useTable<{ id: number; number: string }>({ resource: 'phonenumber', syncWithLocation: true });
  return <Table {...tableProps} rowKey="id" columns={[{ title: t('number'), dataIndex: 'number' }]} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <ConfigProvider locale={idID}>
        <AntdApp>
          <Refine routerProvider={routerProvider} dataProvider={dataProvider} resources={[{ name: 'phonenumber', list: '/phonenumber' }]}>
            <Routes>
              <Route element={<Shell />}>
                <Route path="/phonenumber" element={<NumberList />} />
              </Route>
            </Routes>
          </Refine>
        </AntdApp>
      </ConfigProvider>
    </BrowserRouter>
  </StrictMode>,
);
