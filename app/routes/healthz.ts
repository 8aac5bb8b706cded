// Liveness and readiness for load balancers: 200 when the database answers, 503 when it does not.
import { appContext } from "../context.server";
import { healthResponse } from "../db.server";

export const loader = () => healthResponse(appContext().db);
