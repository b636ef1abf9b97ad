package io.seckill.operator;

import static io.seckill.support.OrderStreams.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.support.ApiClient;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.StreamSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The operator's walk through the console in a real browser (headless Chromium, Debian's {@code chromium} and
 * {@code chromium-driver}): log in, see the routes with order-writer running, open the DeadLetters MBean, list a
 * dead letter and replay it; the order then lands in the database. Each step's screen is saved under
 * {@code target/console-screenshots/} for a person to look at.
 */
@FaultInjectionTest
@DisableJmx(false)
class OperatorConsoleBrowserIntegrationTests {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    // Generous: Hawtio loads a large bundle and lists every MBean, on a machine whose two cores are busy.
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Autowired
    ApiClient api;

    @Autowired
    OperatorProperties operator;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    CamelContext camel;

    WebDriver browser;
    WebDriverWait until;
    OrderStreams streams;

    @BeforeEach
    void openBrowser() throws IOException {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (System.getenv("CI") != null) {
            // In CI a missing browser is a broken machine (.ci/run installs it), never a reason to skip.
            assertThat(installed).as("%s and %s must be installed (apt-get install chromium chromium-driver)",
                    CHROMIUM, CHROMEDRIVER).isTrue();
        }
        Assumptions.assumeTrue(installed, "No " + CHROMIUM + " / " + CHROMEDRIVER
                + ": install Debian's chromium and chromium-driver to run the console test");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000");
        // The Debian driver, so that Selenium Manager downloads nothing.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(PATIENCE);
        until = new WebDriverWait(browser, PATIENCE, Duration.ofMillis(250));
        // Tried again, not failed: an element React replaced or covered for a moment (see click).
        until.ignoring(StaleElementReferenceException.class).ignoring(ElementClickInterceptedException.class);
        Files.createDirectories(SCREENSHOTS);
        streams = new OrderStreams(redis);
        database.healAll();
    }

    @AfterEach
    void closeBrowser() throws IOException {
        if (browser != null) {
            // The screen as the test left it: after a failure, what the operator would have seen.
            screenshot("last");
            browser.quit();
        }
        database.healAll();
    }

    @Test
    void operatorLogsInSeesTheRoutesAndReplaysADeadLetter() throws Exception {
        long voucherId = api.createVoucher(1);
        long orderId = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 62);
        // XADD: an order the database refuses until healed, so the writer dead-letters it
        database.failWritesOf(orderId);
        streams.add(order(orderId, voucherId, 7));
        await().atMost(PATIENCE).until(() -> streams.deadLetters().stream()
                .anyMatch(letter -> Long.toString(orderId).equals(letter.get("orderId"))));
        database.healAll();

        browser.get(api.url("/actuator/hawtio/"));
        until.until(ExpectedConditions.urlContains("/login"));
        browser.findElement(By.name("username")).sendKeys(operator.username());
        browser.findElement(By.name("password")).sendKeys(operator.password());
        browser.findElement(By.cssSelector("button[type=submit]")).click();

        // Camel → the context's routes: order-writer is there and Started.
        click(By.xpath(navItem("Camel")));
        click(By.xpath(treeNode("routes")));
        until.until(ExpectedConditions.textToBePresentInElementLocated(
                By.xpath("//tr[td[normalize-space()='order-writer']]"), "Started"));
        screenshot("1-routes");

        // JMX → seckill → DeadLetters → Operations.
        click(By.xpath(navItem("JMX")));
        WebElement domain = until.until(ExpectedConditions.visibilityOfElementLocated(
                By.xpath("//li[@id='seckill-folder']")));
        if (!"true".equals(domain.getAttribute("aria-expanded"))) {
            click(By.xpath("//li[@id='seckill-folder']"
                    + "/descendant::button[contains(@class,'tree-view__node-toggle')][1]"));
        }
        click(By.xpath("//li[@id='seckill-folder-DeadLetters']//button[contains(@class,'tree-view__node-text')]"));
        until.until(ExpectedConditions.visibilityOfElementLocated(
                By.xpath("//*[normalize-space()='seckill:type=DeadLetters']")));
        click(By.xpath("//nav[@aria-label='MBean Nav']//a[normalize-space()='Operations']"));

        // list(int): the staged dead letter is in the answer (a JSON array); its id is taken from there.
        JsonNode listed = new ObjectMapper().readTree(execute("list(int)", "max", "100"));
        JsonNode letter = StreamSupport.stream(listed.spliterator(), false)
                .filter(row -> row.get("orderId").asText().equals(Long.toString(orderId))).findFirst()
                .orElseThrow(() -> new AssertionError("order " + orderId + " not listed: " + listed));
        assertThat(letter.get("voucherId").asLong()).isEqualTo(voucherId);
        assertThat(letter.get("reason").asText()).contains("injected failure writing order " + orderId);
        String deadLetterId = letter.get("id").asText();
        screenshot("2-dead-letters");

        // replay(String): true, and the order goes back on the orders stream (in Redis) and is written (in the
        // database). The writer pauses meanwhile, so the entry is seen on the stream before it is written and deleted.
        camel.getRouteController().stopRoute("order-writer");
        try {
            assertThat(execute("replay(java.lang.String)", "id", deadLetterId)).contains("true");
            screenshot("3-replayed");
            assertThat(streams.deadLetters()).noneMatch(row -> deadLetterId.equals(row.get("id")));
            assertThat(streams.idOf(orderId)).as("the replayed order's entry on the orders stream").isNotNull();
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }
        JdbcTemplate db = new JdbcTemplate(database.real());
        await().atMost(PATIENCE).until(() -> db.queryForObject(
                "SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, orderId) == 1);
        await().atMost(PATIENCE).until(streams::quiet);
        assertThat(db.queryForObject("SELECT voucher_id FROM orders WHERE order_id = ?", Long.class, orderId))
                .isEqualTo(voucherId);
        assertThat(streams.deadLetters()).noneMatch(row -> Long.toString(orderId).equals(row.get("orderId")));
    }

    /**
     * Expands an operation (named by its signature, as Hawtio's ids are: {@code replay(java.lang.String)}), fills its
     * one argument, runs it and answers the text of its result.
     */
    private String execute(String operation, String argument, String value) {
        String section = "//section[@id='operation-execute-" + operation + "']";
        click(By.xpath("//li[@aria-labelledby='operation " + operation + "']//button[@aria-label='Details']"));
        WebElement input = until.until(ExpectedConditions.visibilityOfElementLocated(
                By.xpath(section + "//input[contains(@id,'-arg-form-input-" + argument + "-')]")));
        input.clear();
        input.sendKeys(value);
        click(By.xpath(section + "//button[normalize-space()='Execute']"));
        WebElement result = until.until(ExpectedConditions.presenceOfElementLocated(
                By.xpath("//section[@id='operation-result-" + operation + "']//pre[string-length(normalize-space()) > 0]")));
        return result.getAttribute("textContent");
    }

    /**
     * Clicks once the element is there and clickable, scrolled into view first: the JMX tree makes the page long.
     * Each try finds the element afresh: Hawtio's React re-renders a section as it is filled in (the Execute button of
     * an operation was replaced between being found and clicked, a stale element, in CI) or covers it for a moment.
     */
    private void click(By locator) {
        until.until(driver -> {
            WebElement element = driver.findElement(locator);
            ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", element);
            if (!element.isDisplayed() || !element.isEnabled()) {
                return false;
            }
            element.click();
            return true;
        });
    }

    private void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String navItem(String label) {
        return "//nav//a[normalize-space()='" + label + "']";
    }

    private static String treeNode(String label) {
        return "//*[contains(@class,'tree-view__node-text') and normalize-space()='" + label + "']";
    }
}
