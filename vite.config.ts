import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { routePreloadsPlugin } from './client/build/routePreloads';

const NODE_MODULES = /[\\/]node_modules[\\/]/;
/** Our stand-ins for library code loaded on demand (the `rarely-used-on-demand` plugin): chunked as the library. */
const STAND_INS = /[\\/]client[\\/]src[\\/]lib[\\/](cardTabs\.tsx|filterTree\.tsx|refineCsv\.ts|refineOnDemand\.tsx|avatarGroup\.tsx|typographyEditable\.tsx|uploadProgress\.tsx|skeletonOnDemand\.tsx|inputOtp\.tsx|onDemand\.tsx)$/;
const PRELOAD_HELPER = /vite\/preload-helper/;
const vendorCode = (id: string) => NODE_MODULES.test(id) || STAND_INS.test(id);
/**
 * The pages outside the console (routes.tsx): their vendor code must not wait for the console's. The
 * two-factor set-up is opened signed in, after the password, and loads lazily with its QR code and the
 * console's providers: it stays out, so /signin does not carry them.
 */
const PUBLIC_PAGES = /[\\/]client[\\/]src[\\/](pages[\\/]auth[\\/](?!TwoFactorSetup)|Root\.tsx|main\.tsx)/;

/** antd's and its icons' barrels: following all their imports would reach every component. */
const BARRELS = /[\\/]node_modules[\\/](antd[\\/]es[\\/]index\.js|@ant-design[\\/]icons[\\/]es[\\/]index\.js)$/;
const kebab = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

/**
 * Every module the public pages import, statically and transitively, read from the module graph once it is
 * complete (buildEnd runs before chunks are formed). Their vendor code joins the entry's vendor chunk, so
 * /signin never downloads the console's shared chunk for one button it also uses. The graph is read before
 * tree-shaking, so antd's barrels are not followed; the components a public page names in
 * `import { … } from 'antd'` (and its icons) are followed instead.
 */
const publicModules = new Set<string>();
/** Every module the console's shell imports, beyond the public pages' (read the same way, in buildEnd). */
const shellModules = new Set<string>();
const CONSOLE_SHELL = /[\\/]client[\\/]src[\\/](App\.tsx|components[\\/]layout[\\/]Protected\.tsx)$/;
const publicGraph: Plugin = {
  name: 'public-module-graph',
  apply: 'build',
  buildEnd() {
    const all = [...this.getModuleIds()];
    /** What `starts` import, statically and transitively, not entering `stop`. */
    const reach = (starts: string[], stop?: Set<string>) => {
      const seen = new Set<string>();
      const named = new Set<string>();
      const visit = (id: string) => {
        if (seen.has(id) || BARRELS.test(id) || stop?.has(id)) return;
        seen.add(id);
        const info = this.getModuleInfo(id);
        if (!NODE_MODULES.test(id) && info?.code) {
          for (const m of info.code.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](antd|@ant-design\/icons)['"]/g)) {
            for (const name of m[1]!.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]!.replace(/^type\s+/, '')).filter(Boolean)) {
              named.add(m[2] === 'antd' ? `/antd/es/${kebab(name)}/index.js` : `/@ant-design/icons/es/icons/${name}.js`);
            }
          }
        }
        for (const dep of info?.importedIds ?? []) visit(dep);
        for (const path of named) {
          named.delete(path);
          const hit = all.find((m) => m.replaceAll('\\', '/').endsWith(path));
          if (hit) visit(hit);
        }
      };
      for (const id of starts) visit(id);
      return seen;
    };
    publicModules.clear();
    for (const id of reach(all.filter((id) => PUBLIC_PAGES.test(id)))) publicModules.add(id);
    // The console's shell (Refine's providers in App.tsx, the layout in Protected.tsx) is in every console
    // screen: what it imports belongs in one shared chunk however few screens import it themselves.
    shellModules.clear();
    for (const id of reach(all.filter((id) => CONSOLE_SHELL.test(id)), publicModules)) shellModules.add(id);
  },
};

/**
 * A package's code goes into the shared console chunk when at least this many screens (lazy page modules)
 * use it; code fewer screens use stays in chunks of their own (bench/client.ts weighs both).
 */
const CONSOLE_SHARE = 20;
/** @refinedev/antd's one module, and the antd parts and icons it names only for views the console never draws. */
const REFINE_ANTD = /[\\/]node_modules[\\/]@refinedev[\\/]antd[\\/]dist[\\/]index\.mjs$/;
const ON_DEMAND = new Set(['Drawer', 'Breadcrumb', 'Popconfirm']);
// Icons our own screens draw (the auto-save indicator's SyncOutlined on the phone list, CheckCircleOutlined in the
// menu…) are left out: an icon imported both ways becomes a file of its own.
const ON_DEMAND_ICONS = new Set([
  'HomeOutlined', 'LogoutOutlined', 'UnorderedListOutlined', 'RedoOutlined', 'ArrowLeftOutlined',
  'ArrowRightOutlined', 'UndoOutlined',
]);

/**
 * Code a library imports statically but the console rarely or never runs, answered by our own modules.
 * @refinedev/core names papaparse for its import/export hooks, which the console does not use: its import is
 * answered by client/src/lib/refineCsv.ts, so the CSV library loads only on an export click (lib/download.ts).
 */
const refineCsv: Plugin = {
  name: 'rarely-used-on-demand',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === 'papaparse' && importer && /[\\/]node_modules[\\/]@refinedev[\\/]core[\\/]/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/refineCsv.ts', import.meta.url));
    }
    // antd's Card imports Tabs for its `tabList`, which no console card has: they load when a card asks.
    if (source === '../tabs' && importer && /[\\/]node_modules[\\/]antd[\\/]es[\\/]card[\\/]Card\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/cardTabs.tsx', import.meta.url));
    }
    // antd's Table filter dropdown imports Tree for `filterMode: 'tree'`, which no console column has.
    if (source === '../../../tree' && importer && /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]FilterDropdown\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/filterTree.tsx', import.meta.url));
    }
    // antd's form context, which every input, checkbox and button imports, names rc-field-form's index for its
    // FormProvider alone; the index brings Field, List, the form store and async-validator (about 15 KB gzip)
    // into /signin, which has no antd Form. The provider's own module is the same one the index re-exports.
    if (source === 'rc-field-form' && importer && /[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer)) {
      return this.resolve('rc-field-form/es/FormContext', importer, { skipSelf: true });
    }
    // antd's Avatar imports its Group (with Popover) for `Avatar.Group`, which no console screen draws.
    if (source === './AvatarGroup' && importer && /[\\/]node_modules[\\/]antd[\\/]es[\\/]avatar[\\/]index\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/avatarGroup.tsx', import.meta.url));
    }
    // antd's Typography imports its in-place editor for `editable`, which no console text is.
    if (source === '../Editable' && importer && /[\\/]node_modules[\\/]antd[\\/]es[\\/]typography[\\/]Base[\\/]index\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/typographyEditable.tsx', import.meta.url));
    }
    // antd's Card, Modal and Drawer import Skeleton for `loading`, which no console card, dialog or drawer is given.
    if (source === '../skeleton' && importer && /[\\/]node_modules[\\/]antd[\\/]es[\\/](card[\\/]Card|modal[\\/]Modal|drawer[\\/]DrawerPanel)\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/skeletonOnDemand.tsx', import.meta.url));
    }
    // antd's Input index imports its one-time-code field for `Input.OTP`, which no console screen draws.
    if (source === './OTP' && importer && /[\\/]node_modules[\\/]antd[\\/]es[\\/]input[\\/]index\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/inputOtp.tsx', import.meta.url));
    }
    // antd's Upload list imports Progress for a file Upload itself sends; the console's pickers send their files
    // themselves (`beforeUpload` returns false), so the list never draws it.
    if (source === '../../progress' && importer && /[\\/]node_modules[\\/]antd[\\/]es[\\/]upload[\\/]UploadList[\\/]ListItem\.js$/.test(importer)) {
      return fileURLToPath(new URL('./client/src/lib/uploadProgress.tsx', import.meta.url));
    }
    return null;
  },
  // @refinedev/antd is one module: the antd parts and icons only its undrawn views use (ThemedSider's Drawer, the
  // default Breadcrumb, DeleteButton's Popconfirm, their buttons' icons) come from client/src/lib/refineOnDemand.tsx,
  // which loads them when one is first drawn.
  transform(code, id) {
    if (!REFINE_ANTD.test(id)) return null;
    const standIn = fileURLToPath(new URL('./client/src/lib/refineOnDemand.tsx', import.meta.url));
    let moved = 0;
    const out = code.replace(/import\s*\{([^}]*)\}\s*from\s*"(antd|@ant-design\/icons)";/g, (whole, list: string, from: string) => {
      const onDemand = from === 'antd' ? ON_DEMAND : ON_DEMAND_ICONS;
      const names = list.split(',').map((n) => n.trim()).filter(Boolean);
      const lazy = names.filter((n) => onDemand.has(n.split(/\s+as\s+/)[0]!));
      if (lazy.length === 0) return whole;
      moved += lazy.length;
      const kept = names.filter((n) => !lazy.includes(n));
      return `${kept.length ? `import { ${kept.join(', ')} } from "${from}";` : ''}import { ${lazy.join(', ')} } from ${JSON.stringify(standIn)};`;
    });
    return moved ? { code: out, map: null } : null;
  },
};

export default defineConfig({
  root: 'client',
  plugins: [react(), publicGraph, refineCsv, routePreloadsPlugin()],
  resolve: {
    alias: [
      // @refinedev/core and @refinedev/react-router parse and write the table's query string with qs; its
      // polyfill chain (side-channel, object-inspect, get-intrinsic…) was about 15 KB gzip in every console
      // screen. qs-esm is the maintained fork with the same parse/stringify options (client/src/lib/qs.ts).
      { find: /^qs$/, replacement: fileURLToPath(new URL('./client/src/lib/qs.ts', import.meta.url)) },
      // rc-resize-observer (antd) imports a ResizeObserver polyfill; the browser's own is used instead.
      // @refinedev/antd's <List>/<Create>/<Edit> draw their header with @ant-design/pro-layout's PageHeader,
      // which brings @ant-design/pro-provider (about 17 KB gzip), antd's Breadcrumb and Avatar into every
      // console screen; the project's PageHeader renders the same header from antd's theme.
      { find: /^@ant-design\/pro-layout$/, replacement: fileURLToPath(new URL('./client/src/components/PageHeader.tsx', import.meta.url)) },
      { find: /^resize-observer-polyfill$/, replacement: fileURLToPath(new URL('./client/src/lib/resizeObserver.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    // bench/client.ts reads which chunks each route downloads from the manifest.
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What the entry and the public pages need (React, the router, i18next, antd's theme, Form, Input,
            // Button): one file.
            // Vite's preload helper stays with it: every lazy import goes through it, the entry's first.
            { name: 'vendor', test: (id) => (vendorCode(id) && publicModules.has(id)) || PRELOAD_HELPER.test(id), priority: 3 },
            // What the console's shell imports (Refine, TanStack Query, the layout's antd parts: the top bar's
            // Dropdown and Avatar, the menu): every console screen downloads it, so it is one file however few
            // screens import a part themselves (a share count alone let the top bar's Dropdown fall out of it when
            // the create screens stopped importing the Table).
            { name: 'console-shell', test: (id) => vendorCode(id) && !publicModules.has(id) && shellModules.has(id), priority: 2 },
            // antd's Skeleton loads on demand for a Card, Modal or Drawer (lib/skeletonOnDemand.tsx); the screens that
            // draw it (the dashboards' tiles, Statistic on the dashboards and /withdraw) get it in one file with Statistic
            // rather than two. Only in the console's build: in the floor's (bench/client-floor, no shell) the group split
            // its single file into four and raised the floor by 2.8 KB, which would loosen the budget.
            { name: 'statistic', test: (id) => shellModules.size > 0 && /[\\/]node_modules[\\/]antd[\\/]es[\\/](statistic|skeleton)[\\/]/.test(id), priority: 2 },
            // What most console screens share besides (the lists' and forms' antd parts): one file instead of
            // some forty small ones, so a cold list screen makes few requests.
            { name: 'console-vendor', test: (id) => vendorCode(id) && !publicModules.has(id), minShareCount: CONSOLE_SHARE, priority: 2 },
          ],
        },
      },
      treeshake: {
        // Packages that declare no sideEffects field but have none: without this, @refinedev/antd's
        // unused MarkdownField keeps react-markdown and its parser in every console screen.
        moduleSideEffects: [
          {
            test: /node_modules\/(react-markdown|remark-[^/]+|rehype-[^/]+|micromark[^/]*|mdast-[^/]+|hast-[^/]+|unist-[^/]+|unified|vfile[^/]*|property-information|html-url-attributes|devlop|bail|trough|is-plain-obj|decode-named-character-reference|character-entities[^/]*|comma-separated-tokens|space-separated-tokens|estree-util-[^/]+|style-to-[^/]+|inline-style-parser|trim-lines|ccount|markdown-table|zwitch|longest-streak|papaparse)\//,
            sideEffects: false,
          },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
});
