package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.s3.S3AsyncFileUploader;
import io.github.boundedupload.s3.S3FileUploader;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Which storage the uploader writes to, as the health indicator and {@code /actuator/info} say it: what an operator
 * reads first when files are not where they should be. Changes when what is shown of the storage in use changes.
 *
 * @param type {@code s3}, {@code local}, or {@code application} (a storage bean of another kind)
 * @param location {@code s3://bucket}, the directory, or the storage bean's class
 * @param client for S3: which client, the application's bean or one built here
 */
record StorageInUse(String type, String location, @Nullable String client) {

    /**
     * The storage from what is known of it: the check of a storage configured here wins; else the application's
     * single storage bean, if it has one.
     *
     * @param storageBean the application's single {@code FileUploader} or {@code AsyncFileUploader} bean, if any
     * @param check the check of a storage configured here, if any
     * @return the storage, or {@code null} when nothing is known
     */
    static @Nullable StorageInUse of(@Nullable Object storageBean, @Nullable StorageCheck check) {
        if (check != null) {
            return check.storage();
        }
        if (storageBean instanceof LocalFileUploader) {
            return new StorageInUse("local", ((LocalFileUploader) storageBean).root().toString(), null);
        }
        if (storageBean != null && S3StorageConfiguration.isOnClassPath(StorageInUse.class.getClassLoader())) {
            StorageInUse s3 = S3Storages.of(storageBean);
            if (s3 != null) {
                return s3;
            }
        }
        return storageBean != null ? new StorageInUse("application", storageBean.getClass().getName(), null) : null;
    }

    /**
     * The application's single storage bean: its {@code FileUploader}, else its {@code AsyncFileUploader}.
     *
     * @param blocking the {@code FileUploader} beans
     * @param async the {@code AsyncFileUploader} beans
     * @return the bean, or {@code null} when there is none or more than one
     */
    static @Nullable Object storageBean(ObjectProvider<FileUploader> blocking, ObjectProvider<AsyncFileUploader> async) {
        FileUploader unique = blocking.getIfUnique();
        return unique != null ? unique : async.getIfUnique();
    }

    /** As {@code /actuator/info} shows it. */
    Map<String, Object> asMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("type", type);
        map.put("location", location);
        if (client != null) {
            map.put("client", client);
        }
        return map;
    }

    /** References the S3 adapter only when it is on the class path. */
    private static final class S3Storages {
        static @Nullable StorageInUse of(Object storage) {
            if (storage instanceof S3AsyncFileUploader) {
                return new StorageInUse("s3", "s3://" + ((S3AsyncFileUploader) storage).bucket(),
                        "the application's S3AsyncFileUploader bean");
            }
            if (storage instanceof S3FileUploader) {
                return new StorageInUse("s3", "s3://" + ((S3FileUploader) storage).bucket(),
                        "the application's S3FileUploader bean");
            }
            return null;
        }
    }
}
