import { Accounts } from "@crown/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, signUpVerified, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/** Issue 21: `/api/v1/es/...` answers every error class in Spanish; `/api/v1/en/...` is untouched. */
describe.each(await databaseKinds())("answers in Spanish on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const es = (method: string, url: string, options: { body?: unknown; token?: string | null; ip?: string } = {}) =>
    server.call(method, url, { ...options, language: "es" });

  test("422: the message and every field error in Spanish; English the same bytes as before", async () => {
    const body = { email: "not-an-email", password: b64("short"), phone: "12", type: "alien" };
    const spanish = await es("POST", "/user/sign-up", { body });
    expect(spanish.status).toBe(422);
    expect(spanish.json.errors).toEqual({
      first_name: ["El campo Nombre es obligatorio"],
      last_name: ["El campo Apellido es obligatorio"],
      email: ["El correo electrónico no es válido"],
      password: [
        "La contraseña debe tener al menos 8 caracteres, con al menos una mayúscula, una minúscula, un número y un carácter especial (!@#$%^&*-_)",
      ],
      phone: ["El número de celular no es válido"],
      // Intl.ListFormat writes the Spanish list: "u" before a word starting with "o".
      type: ["El campo Tipo debe ser uno de estos valores: parent, physician u other"],
    });
    expect(spanish.json.message).toBe("El campo Nombre es obligatorio");

    const english = await server.post("/user/sign-up", body);
    expect(english.status).toBe(422);
    expect(english.json.message).toBe("First name is required");
    expect(english.json.errors.email).toEqual(["Email is invalid"]);
    // The English answer is exactly what the use case said: no re-encoding on the way out.
    const raw = await server.app.request("/api/v1/en/user/sign-up", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.1.2.3" },
      body: JSON.stringify(body),
    });
    expect(await raw.text()).toBe(JSON.stringify({ message: english.json.message, errors: english.json.errors }));
  });

  test("a success message in Spanish; the data in results untouched", async () => {
    const email = uniqueEmail("es");
    const signUp = await es("POST", "/user/sign-up", {
      body: { first_name: "Lucía", last_name: "Pérez", email, password: b64(PASSWORD), phone: "5551234567", type: "parent", register_type: "normal" },
    });
    expect(signUp.status).toBe(201);
    expect(signUp.json.message).toBe("Gracias por registrarse. Revise su bandeja de entrada y verifique su correo electrónico");
    expect(signUp.json.results).toMatchObject({ email, type: "parent", status: "EmailVerificationRequired" });

    // 403 with its status kept for the client.
    const before = await es("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD) } });
    expect(before.status).toBe(403);
    expect(before.json).toEqual({ message: "Verifique su correo electrónico antes de iniciar sesión.", status: "EmailVerificationRequired" });
  });

  test("401 without a session", async () => {
    const answer = await es("GET", "/user/profile");
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ message: "No tiene autorización para realizar esta acción" });
  });

  test("404: a thing not found names it in Spanish; an unknown call too", async () => {
    const parent = await signUpVerified(server, "parent");
    const photo = await es("GET", "/user/profile-photo", { token: parent.token });
    expect(photo.status).toBe(404);
    expect(photo.json.message).toBe("No se encontró la foto de perfil");
    const unknown = await es("GET", "/no/such/call");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: "No se encontró" });
  });

  test("409: a refusal from the account's state", async () => {
    const email = uniqueEmail("admin");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "admin", firstName: "Ada", lastName: "Admin" }));
    const boss = await es("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD) } });
    expect(boss.json.message).toBe("Sesión iniciada correctamente");
    const parent = await signUpVerified(server, "parent");
    const answer = await es("POST", "/admin/users/approve", { body: { identifier: parent.identifier }, token: boss.json.results.token });
    expect(answer.status).toBe(409);
    expect(answer.json.message).toMatch(/^Esta cuenta no está pendiente de aprobación \(estado \w+\)\.$/);
  });

  test("413 and 415 from the body policy", async () => {
    const big = await server.app.request("/api/v1/es/user/password/recover", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(5 * 1024 * 1024), "x-forwarded-for": "10.9.0.1" },
      body: "x".repeat(5 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: "El cuerpo de la solicitud es demasiado grande." });
    const xml = await server.app.request("/api/v1/es/user/sign-in", {
      method: "POST",
      headers: { "content-type": "text/xml", "x-forwarded-for": "10.9.0.2" },
      body: "<x/>",
    });
    expect(xml.status).toBe(415);
    expect(await xml.json()).toEqual({ message: "Esta llamada acepta un cuerpo JSON (application/json)." });
  });

  test("429 with Retry-After", async () => {
    const parent = await signUpVerified(server, "parent");
    const ip = "203.0.113.77";
    let last = await es("POST", "/user/sign-in", { body: { email: parent.email, password: b64("Wrong-pass-1!") }, ip });
    expect(last.json.message).toBe("Estos datos de acceso no coinciden con nuestros registros.");
    for (let i = 0; i < 6 && last.status !== 429; i++) last = await es("POST", "/user/sign-in", { body: { email: parent.email, password: b64("Wrong-pass-1!") }, ip });
    expect(last.status).toBe(429);
    expect(last.json.message).toBe("Demasiados intentos. Vuelva a intentarlo más tarde.");
    expect(Number(last.response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe.each(await databaseKinds())("the user's language on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });
  const mailsTo = async (email: string) => (await server.outbox()).filter((m) => m.to.includes(email));

  test("a sign-up through /api/v1/es is a Spanish account: its e-mails are Spanish until the user chooses English", async () => {
    const email = uniqueEmail("lucia");
    const signUp = await server.call("POST", "/user/sign-up", {
      language: "es",
      body: { first_name: "Lucía", last_name: "Pérez", email, password: b64(PASSWORD), phone: "5551234567", type: "parent", register_type: "normal" },
    });
    expect(signUp.status).toBe(201);
    const [verification] = await mailsTo(email);
    expect(verification!.subject).toBe("Verifique su correo electrónico para Crown");
    expect(verification!.text).toContain("Hola, Lucía:");
    expect(verification!.text).toContain("caduca en");
    expect(verification!.html).toContain("O copie esta dirección en su navegador:");
    const link = new URL(server.findLink(verification!.text, "/verify-email")!);
    const q = link.searchParams;
    expect((await server.get(`/email/verify/${q.get("id")}/${q.get("token")}?expires=${q.get("expires")}&signature=${q.get("signature")}`)).status).toBe(200);
    const signIn = await server.post("/user/sign-in", { email, password: b64(PASSWORD) });
    const token = signIn.json.results.token as string;
    expect((await server.get("/user/profile", token)).json.results.language).toBe("es");

    await server.post("/user/password/recover", { email });
    expect((await mailsTo(email)).at(-1)!.subject).toBe("Restablezca su contraseña de Crown");

    const bad = await server.call("POST", "/user/language", { body: { language: "fr" }, token, language: "es" });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.language).toEqual(["El campo Idioma debe ser uno de estos valores: en o es"]);
    const english = await server.post("/user/language", { language: "en" }, token);
    expect(english.json).toEqual({ message: "Language changed successfully", results: { language: "en" } });
    expect((await server.get("/user/profile", token)).json.results.language).toBe("en");
    await server.post("/user/password/recover", { email });
    expect((await mailsTo(email)).at(-1)!.subject).toBe("Reset your Crown password");
  });

  test("a sign-up through /api/v1/en stays English", async () => {
    const { email, token } = await signUpVerified(server, "parent");
    expect((await mailsTo(email))[0]!.subject).toBe("Verify your e-mail address for Crown");
    expect((await server.get("/user/profile", token)).json.results.language).toBe("en");
  });
});
