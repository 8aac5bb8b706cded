// The app's modules the demo drives, loaded once the environment is complete (env() parses it on first use):
// nothing of the app may be imported statically by the demo's modules before prepareEnvironment has run.

export type DemoApp = Awaited<ReturnType<typeof loadApp>>;

export async function loadApp() {
  const { appContext, closeAppContext } = await import("../../app/context.server");
  const { env } = await import("../../app/env.server");
  const { saveSettings } = await import("../../app/settings/settings.server");
  const { saveStatusSettings } = await import("../../app/statuses/settings.server");
  const { notifyAddress } = await import("../../app/statuses/notify-token.server");
  const { updateOnboarding } = await import("../../app/onboarding/state.server");
  const { ONBOARDING_STEPS } = await import("../../app/onboarding/state");
  const { requestStockSync } = await import("../../app/stock/kinds.server");
  const { saveStockSettings } = await import("../../app/stock/settings.server");
  const { createDeliveryRequest } = await import("../../app/deliveries/deliveries.server");
  const { newIdRequest } = await import("../../app/deliveries/form");
  const { kyivDay } = await import("../../app/warehouse/dates");
  const { RETURNS_KIND } = await import("../../app/returns/kinds.server");
  const { requestRun } = await import("../../app/work/schedule.server");
  const { createEngine } = await import("../../app/assembly/engine.server");
  const { startProcessWorker, stopProcessWorker, wakeWorker } = await import("../../app/work/worker.server");
  const { offlineShopAdmin } = await import("../../app/assembly/engine.server");
  const { chooseServiceMode } = await import("../../app/service/register.server");
  const { closeWarehouseConnections } = await import("../../app/warehouse/transport.server");
  const context = appContext();
  const { db } = context;
  const deps = { ...context, wake: wakeWorker };
  return {
    closeAppContext,
    env,
    saveSettings,
    saveStatusSettings,
    notifyAddress,
    updateOnboarding,
    ONBOARDING_STEPS,
    requestStockSync,
    saveStockSettings,
    createDeliveryRequest,
    newIdRequest,
    kyivDay,
    RETURNS_KIND,
    requestRun,
    createEngine,
    startProcessWorker,
    stopProcessWorker,
    wakeWorker,
    offlineShopAdmin,
    chooseServiceMode,
    closeWarehouseConnections,
    context,
    db,
    deps,
  };
}
