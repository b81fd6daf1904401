package dev.onebeat.scheduler.engine.registry;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.outbox.TaskArgumentsProperties;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Builds the {@link JobRegistry} from beans, service providers and configuration. */
@Configuration(proxyBeanMethods = false)
class JobRegistryConfiguration {

    private static final Logger log = LoggerFactory.getLogger(JobRegistryConfiguration.class);

    @Bean
    JobRegistry jobRegistry(ApplicationContext context, JobsProperties properties, TaskArgumentsProperties arguments,
                            Clock clock, NamespaceRules namespaces) {
        List<RegisteredJob> jobs = new ArrayList<>();
        for (Map.Entry<String, PeriodicJob> bean : context.getBeansOfType(PeriodicJob.class).entrySet()) {
            jobs.add(new RegisteredJob(bean.getValue(), "bean '" + bean.getKey() + "'"));
        }
        jobs.addAll(serviceProviders(jobsFolderLoader(Path.of(properties.jobsDir()))));
        jobs.addAll(DeclarativeJobs.from(properties.jobs(), arguments.maxBytes()));
        Instant now = clock.instant();
        jobs.forEach(job -> JobValidation.validate(job, now));
        jobs.forEach(job -> namespaces.checkDefinition(job.origin() + " (job '" + job.name() + "')", job.job()));
        namespaces.checkAtStartup(jobs);
        JobRegistry registry = JobRegistry.of(jobs);
        registry.all().forEach(job -> log.info("job registered job={} schedule='{}' misfire={} origin={}", job.name(),
                job.job().schedule().describe(), job.job().misfirePolicy(), job.origin()));
        return registry;
    }

    static List<RegisteredJob> serviceProviders(ClassLoader loader) {
        List<RegisteredJob> jobs = new ArrayList<>();
        try {
            for (ServiceLoader.Provider<PeriodicJob> provider : ServiceLoader.load(PeriodicJob.class, loader)
                    .stream().toList()) {
                jobs.add(new RegisteredJob(provider.get(), "service " + provider.type().getName()));
            }
        } catch (ServiceConfigurationError e) {
            throw new JobDefinitionException("a PeriodicJob service provider could not be loaded: " + e.getMessage(), e);
        }
        return jobs;
    }

    static ClassLoader jobsFolderLoader(Path folder) {
        ClassLoader parent = JobRegistryConfiguration.class.getClassLoader();
        if (!Files.isDirectory(folder)) {
            return parent;
        }
        try (Stream<Path> files = Files.list(folder)) {
            List<URL> jars = new ArrayList<>();
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
                jars.add(jar.toUri().toURL());
            }
            log.info("job jars found folder={} jars={}", folder.toAbsolutePath(), jars.size());
            return jars.isEmpty() ? parent : new URLClassLoader(jars.toArray(URL[]::new), parent);
        } catch (MalformedURLException e) {
            throw new JobDefinitionException("onebeat.jobs-dir: bad jar path in " + folder, e);
        } catch (IOException e) {
            throw new JobDefinitionException("onebeat.jobs-dir: cannot list " + folder.toAbsolutePath(), e);
        }
    }
}
