// A SKU's day at the warehouse simulator, for the movements' tests: 10 capitalised, an order of 3 shipped
// 45 minutes later, and 1 of them returned an hour after that, each booked as a movement at the simulator's
// clock. Answers the shipped order as the simulator keeps it.
import { createWarehouseClient } from "../../app/warehouse/client.server";
import { DELIVERY_METHOD, PAYMENT_METHOD } from "../../app/warehouse/wire";
import type { OrderRecord, WarehouseSimulator } from "../warehouse-sim";
import { KYIV_CITY_REF } from "../warehouse-sim/reference-data";

export async function bookWarehouseDay(
  sim: WarehouseSimulator,
  sku: string,
  idOrder = "1001",
): Promise<OrderRecord> {
  sim.seedProducts([{ sku, name: "Чай зелений 100 г", quantity: 10 }]);
  sim.clock.advance(45 * 60_000);
  const client = createWarehouseClient({
    apiKey: sim.apiKey,
    endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2 },
  });
  await client.addOrder({
    id_order: idOrder,
    date_order: "14.03.2026",
    recipient: "Шевченко Тарас",
    rec_phone: "380671234567",
    Cost: 450,
    payment_method: PAYMENT_METHOD.cashOnDelivery,
    order_payment_sum: "450",
    delivery_method: DELIVERY_METHOD.novaPoshta,
    delivery_address: { WarehouseRef: sim.reference.branchesInCity(KYIV_CITY_REF)[0]!.Ref },
    products: [{ sku, name: "Чай зелений 100 г", count: "3", price: "150" }],
  });
  const shipped = sim.advanceOrder({ id_order: idOrder, to: "shipped" });
  sim.clock.advance(60 * 60_000);
  sim.addReturn({ id_order: idOrder, products: [{ sku, count: 1 }] });
  return shipped;
}
