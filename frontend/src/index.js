// hexclass' own front end for a Voilà page: the Jupyter kernel connection
// (@jupyterlab/services), an ipywidgets widget manager (ManagerBase of
// @jupyter-widgets/base-manager) with the base, controls and ipycanvas modules, and the
// widget views of the page's outputs -- nothing of JupyterLab's or Voilà's application.
// The hexclass template loads it instead of Voilà's front end on a page whose notebook
// asks for it ("hexclass": {"front_end": "lite"}): the seat page, which has to appear
// quickly on a slow laptop. Widgets it has no module for (the Output widget, third-party
// widgets) show an error where they stand; such pages keep Voilà's front end.
//
// What it does, in the order Voilà 0.5's front end does it:
// 1. read the kernel id and base URL from the page's `jupyter-config-data`;
// 2. connect to that kernel's websocket (the kernel Voilà started, or took from its
//    preheated pool, and ran the notebook in);
// 3. ask the kernel for every widget's state on the `jupyter.widget.control` comm
//    (`request_states`, ManagerBase._loadFromKernel) and build the models;
// 4. render a view for every `application/vnd.jupyter.widget-view+json` output found in the
//    page's `application/vnd.voila.cell-output+json` scripts, where the script was.
import * as base from '@jupyter-widgets/base';
import { ManagerBase } from '@jupyter-widgets/base-manager';
import * as controls from '@jupyter-widgets/controls';
import { KernelConnection } from '@jupyterlab/services/lib/kernel/default';
import { ServerConnection } from '@jupyterlab/services/lib/serverconnection';
import { Widget } from '@lumino/widgets';
// ipycanvas' own front end, the copy its Python package ships (build.mjs resolves this).
import * as ipycanvas from 'ipycanvas-frontend';

const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';
const MODULES = {
  '@jupyter-widgets/base': base,
  '@jupyter-widgets/controls': controls,
  ipycanvas: ipycanvas,
};

class LiteWidgetManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    // widgets the kernel creates later (after the page's first states) open a comm
    kernel.registerCommTarget('jupyter.widget', async (comm, msg) => {
      await this.handle_comm_open(new base.shims.services.Comm(comm), msg);
    });
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    if (!module || !module[className]) {
      throw new Error(`Class ${className} not found in module ${moduleName}@${moduleVersion}`);
    }
    return module[className];
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: 'jupyter.widget' });
    return reply.content.status === 'ok' ? reply.content.comms : {};
  }
}

function showError(container, error) {
  const pre = document.createElement('pre');
  pre.className = 'lm-Widget jp-RenderedText';
  pre.setAttribute('data-mime-type', 'application/vnd.jupyter.stderr');
  pre.textContent = `Javascript Error: ${error && error.message ? error.message : error}`;
  container.appendChild(pre);
}

async function renderOutput(manager, script) {
  const output = JSON.parse(script.textContent);
  const container = script.parentElement;
  script.remove();
  const host = document.createElement('div');
  host.className = 'lm-Widget jp-OutputArea-output';
  container.appendChild(host);
  const data = output.data || {};
  try {
    if (data[WIDGET_VIEW]) {
      const model = await manager.get_model(data[WIDGET_VIEW].model_id);
      const view = await manager.create_view(model);
      Widget.attach(view.luminoWidget, host);
    } else if (data['text/html']) {
      host.innerHTML = [].concat(data['text/html']).join('');
    } else if (output.output_type === 'stream' || data['text/plain']) {
      const pre = document.createElement('pre');
      pre.textContent = [].concat(output.text || data['text/plain']).join('');
      host.appendChild(pre);
    }
  } catch (error) {
    showError(host, error);
  }
}

async function main() {
  // Voilà's template hides the cells until its theme is loaded; there is no theme to load
  window.themeLoaded = true;
  window.display_cells?.();
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const serverSettings = ServerConnection.makeSettings({ baseUrl: config.baseUrl });
  const kernel = new KernelConnection({
    model: { id: config.kernelId, name: 'python3' },
    serverSettings,
    handleComms: true,
  });
  window.addEventListener('beforeunload', () => {
    // as Voilà does: the page's kernel is shut down when the page goes
    const form = new FormData();
    const xsrf = document.cookie.match('\\b_xsrf=([^;]*)\\b');
    form.append('_xsrf', (xsrf && xsrf[1]) || '');
    navigator.sendBeacon(`${config.baseUrl}voila/api/shutdown/${kernel.id}`, form);
    kernel.dispose();
  });
  const manager = new LiteWidgetManager(kernel);
  window.liteWidgetManager = manager;
  await manager._loadFromKernel();
  const scripts = document.querySelectorAll(
    'script[type="application/vnd.voila.cell-output+json"]',
  );
  await Promise.all([...scripts].map((script) => renderOutput(manager, script)));
  document.documentElement.setAttribute('data-lite-rendered', String(scripts.length));
}

main().catch((error) => {
  console.error(error);
  showError(document.getElementById('rendered_cells') || document.body, error);
});
